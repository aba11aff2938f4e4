package org.locus.ndcoupling.namenode;

import java.util.List;

import org.apache.hadoop.hdfs.server.blockmanagement.GearBlockMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sequential transfer, HDFS's own path: each move goes into the source DataNode's replication
 * queue in the NameNode, which hands out {@code dfs.namenode.replication.max-streams} commands
 * at each heartbeat; the DataNode sends each block over a new connection to the target.
 */
final class QueueBlockMover implements BlockMover {
  private static final Logger LOG = LoggerFactory.getLogger(QueueBlockMover.class);
  private final GearBlockMap blockMap;

  QueueBlockMover(GearBlockMap blockMap) {
    this.blockMap = blockMap;
  }

  @Override
  public void move(List<GearBlockMap.Work> work) {
    for (GearBlockMap.Work one : work) {
      if (!blockMap.queueTransfer(one)) {
        LOG.warn("Gear-up: {} has no storage with room for {} of {}", one.target(),
            one.block(), one.entry().path());
      }
    }
  }

  @Override
  public long connectionsOpened() {
    return -1;
  }
}
