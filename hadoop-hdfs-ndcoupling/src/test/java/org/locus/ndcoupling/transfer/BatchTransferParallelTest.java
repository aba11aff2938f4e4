package org.locus.ndcoupling.transfer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.awaitLocations;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.metrics;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.pushesOf;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.service;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.uuids;
import static org.locus.ndcoupling.transfer.BatchTransferClusters.writeOn;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.kit.LocusMiniCluster;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * With {@code locus.ndcoupling.batch-transfer.connections-per-target} above 1, a push is split
 * among that many connections to its target, and no more. Its own cluster, because the key is
 * read when each DataNode starts.
 */
class BatchTransferParallelTest {
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = BatchTransferClusters.threeNodes("batch-transfer-parallel")
        .set(NdCouplingConfigKeys.BATCH_TRANSFER_CONNECTIONS_PER_TARGET, "3")
        .start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void splitsAPushAmongTheConfiguredConnectionsToItsTarget() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    List<DataNode> nodes = cluster.getDfsCluster().getDataNodes();
    DataNode a = nodes.get(0);
    DataNode b = nodes.get(1);
    DataNode c = nodes.get(2);
    List<Path> files = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      Path file = new Path("/parallel/part-" + i);
      contents.add(writeOn(fs, file, 64 * 1024, i, a, c));
      files.add(file);
    }
    long opened = metrics(a).connectionsOpened();
    long accepted = metrics(b).connectionsAccepted();

    PushResult result = new BatchTransferClient().push(service(a),
        cluster.getDfsCluster().getNamesystem().getBlockPoolId(), service(b),
        pushesOf(fs, files, a.getDatanodeUuid()), 60_000);

    assertEquals(12, result.transferred(), result.failures().toString());
    assertEquals(3, result.connectionsOpened());
    assertEquals(3, metrics(a).connectionsOpened() - opened, "connections A opened");
    assertEquals(3, metrics(b).connectionsAccepted() - accepted, "connections B accepted");
    for (int i = 0; i < files.size(); i++) {
      awaitLocations(fs, files.get(i), uuids(b, c));
      assertArrayEquals(contents.get(i), DFSTestUtil.readFileAsBytes(fs, files.get(i)));
    }
  }
}
