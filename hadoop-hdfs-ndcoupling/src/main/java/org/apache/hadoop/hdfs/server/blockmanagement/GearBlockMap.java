package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.util.RwLockMode;
import org.locus.ndcoupling.gear.GearPlan;
import org.locus.ndcoupling.gear.UpdateLogEntry;

/**
 * What the gears read from the NameNode's block map: which blocks a shift down would strand,
 * which blocks of a logged file still wait on a stand-in, and where a block's replicas are.
 *
 * <p>Lives in Hadoop's package (a split package in our jar) because a DataNode's block iterator
 * is package-private. Every method takes the namesystem's read lock itself, briefly, and never
 * holds it across a wait.
 */
public final class GearBlockMap {
  private final FSNamesystem namesystem;
  private final BlockManager blocks;

  public GearBlockMap(FSNamesystem namesystem) {
    this.namesystem = namesystem;
    this.blocks = namesystem.getBlockManager();
  }

  /** A block with no live replica outside the leaving nodes. */
  public record Stranded(long blockId, String path) {
  }

  /** One block to bring from a stand-in to its intended node. */
  public record Work(UpdateLogEntry entry, BlockInfo block, DatanodeDescriptor source,
      DatanodeDescriptor target) {
  }

  /**
   * @return up to {@code limit} blocks held by the leaving nodes that have no replica on a live
   *     node outside them, and how many there are in all (the list's size, when below limit)
   */
  public List<Stranded> stranded(Collection<DatanodeDescriptor> leaving, GearPlan plan,
      Set<String> staying, int limit) {
    List<Stranded> found = new ArrayList<>();
    namesystem.readLock(RwLockMode.GLOBAL);
    try {
      for (DatanodeDescriptor node : leaving) {
        Iterator<BlockInfo> it = node.getBlockIterator();
        while (it.hasNext() && found.size() < limit) {
          BlockInfo block = it.next();
          if (block.isDeleted() || keepsReplica(block, plan, staying)) {
            continue;
          }
          if (found.stream().noneMatch(s -> s.blockId() == block.getBlockId())) {
            found.add(new Stranded(block.getBlockId(), pathOf(block)));
          }
        }
      }
    } finally {
      namesystem.readUnlock(RwLockMode.GLOBAL, "gearStrandCheck");
    }
    return found;
  }

  private boolean keepsReplica(BlockInfo block, GearPlan plan, Set<String> staying) {
    for (DatanodeStorageInfo storage : blocks.getStorages(block)) {
      DatanodeDescriptor holder = storage.getDatanodeDescriptor();
      if (holder.isAlive() && storage.getState() == DatanodeStorage.State.NORMAL
          && !holder.isDecommissioned() && !holder.isDecommissionInProgress()
          && staying.contains(GearPlacementRule.planHost(plan, holder))) {
        return true;
      }
    }
    return false;
  }

  private String pathOf(BlockInfo block) {
    INodeFile file = namesystem.getBlockCollection(block.getBlockCollectionId());
    return file == null ? "(no file)" : file.getFullPathName();
  }

  /**
   * @return the blocks of the entry's file that have a replica on the stand-in and none on the
   *     intended node (empty when the file is gone or every block is already there), each with
   *     its source: the stand-in when it is alive, else another live holder
   */
  public List<Work> resolve(UpdateLogEntry entry, DatanodeDescriptor standIn,
      DatanodeDescriptor intended) {
    List<Work> work = new ArrayList<>();
    namesystem.readLock(RwLockMode.GLOBAL);
    try {
      INodeFile file = fileOf(entry);
      if (file == null) {
        return work;
      }
      for (BlockInfo block : file.getBlocks()) {
        if (!block.isComplete() || holds(block, intended)) {
          continue;
        }
        if (standIn != null && holds(block, standIn)) {
          DatanodeDescriptor source = standIn.isAlive() ? standIn : liveHolder(block);
          if (source != null) {
            work.add(new Work(entry, block, source, intended));
          }
        }
      }
    } finally {
      namesystem.readUnlock(RwLockMode.GLOBAL, "gearResolve");
    }
    return work;
  }

  /**
   * The move of a block that has not reached its target, to issue again: from its source while
   * that is alive and still holds the block, else from another live holder. A block meant for
   * two returning nodes has a stand-in for each; once one target has its copy, the NameNode
   * may choose the <i>other</i> target's stand-in as the excess replica, and that move must then
   * come from a node that still holds the block.
   *
   * @return the move, or null when the block is on its target already, is deleted, or no live
   *     node holds it
   */
  public Work again(Work work) {
    namesystem.readLock(RwLockMode.GLOBAL);
    try {
      BlockInfo block = blocks.getStoredBlock(work.block());
      if (block == null || block.isDeleted() || holds(block, work.target())) {
        return null;
      }
      DatanodeDescriptor source = work.source().isAlive() && holds(block, work.source())
          ? work.source() : liveHolder(block);
      return source == null ? null : new Work(work.entry(), block, source, work.target());
    } finally {
      namesystem.readUnlock(RwLockMode.GLOBAL, "gearAgain");
    }
  }

  private INodeFile fileOf(UpdateLogEntry entry) {
    INode inode = entry.inodeId() > 0
        ? namesystem.getFSDirectory().getInode(entry.inodeId()) : null;
    if (inode == null && entry.inodeId() <= 0) {
      try {
        inode = namesystem.getFSDirectory().getINode(entry.path());
      } catch (java.io.IOException e) {
        return null;
      }
    }
    return inode != null && inode.isFile() ? inode.asFile() : null;
  }

  /** @return a live holder of the block, or null */
  public DatanodeDescriptor liveHolder(BlockInfo block) {
    for (DatanodeStorageInfo storage : blocks.getStorages(block)) {
      if (storage.getDatanodeDescriptor().isAlive()) {
        return storage.getDatanodeDescriptor();
      }
    }
    return null;
  }

  /** @return whether the NameNode lists a replica of the block on this node */
  public boolean holds(BlockInfo block, DatanodeDescriptor node) {
    for (DatanodeStorageInfo storage : blocks.getStorages(block)) {
      if (storage.getDatanodeDescriptor().equals(node)) {
        return true;
      }
    }
    return false;
  }

  /**
   * @return whether the node still holds a replica the block does not need: listed, not yet
   *     chosen as excess, while the block has more live replicas than its replication factor.
   *     A block written in low gear with fewer live nodes than its factor needs the stand-in's
   *     replica as one of its own, and keeps it.
   */
  public boolean holdsExtra(BlockInfo block, DatanodeDescriptor node) {
    namesystem.readLock(RwLockMode.GLOBAL);
    try {
      return holds(block, node) && !blocks.isExcess(node, block)
          && blocks.countNodes(block).liveReplicas() > blocks.getExpectedRedundancyNum(block);
    } finally {
      namesystem.readUnlock(RwLockMode.GLOBAL, "gearHolds");
    }
  }

  /** @return {@link #holds} under the read lock */
  public boolean holdsLocked(BlockInfo block, DatanodeDescriptor node) {
    namesystem.readLock(RwLockMode.GLOBAL);
    try {
      return holds(block, node);
    } finally {
      namesystem.readUnlock(RwLockMode.GLOBAL, "gearHolds");
    }
  }

  /**
   * Queues a transfer of the block from source to target in the source's replication queue,
   * which the NameNode hands out at the source's heartbeats ({@code dfs.namenode.replication
   * .max-streams} at a time): the stock path, one DataNode-to-DataNode connection per block.
   *
   * @return false when the target has no storage that can take the block
   */
  public boolean queueTransfer(Work work) {
    DatanodeStorageInfo storage = storageFor(work.target(), work.block().getNumBytes());
    if (storage == null) {
      return false;
    }
    work.source().addBlockToBeReplicated(work.block(), new DatanodeStorageInfo[] {storage});
    return true;
  }

  /** @return a normal DISK storage of the node with room for the block (else any), or null */
  private static DatanodeStorageInfo storageFor(DatanodeDescriptor node, long bytes) {
    DatanodeStorageInfo fallback = null;
    for (DatanodeStorageInfo storage : node.getStorageInfos()) {
      if (storage.getState() != DatanodeStorage.State.NORMAL || storage.getRemaining() < bytes) {
        continue;
      }
      if (storage.getStorageType() == StorageType.DISK) {
        return storage;
      }
      fallback = fallback == null ? storage : fallback;
    }
    return fallback;
  }

  /** @return the block pool of this NameNode's namespace */
  public String blockPoolId() {
    return namesystem.getBlockPoolId();
  }

  /** @return the DataNode the NameNode knows by this plan host name or IP, or null */
  public DatanodeDescriptor datanode(String host) {
    DatanodeManager manager = blocks.getDatanodeManager();
    DatanodeDescriptor node = manager.getDatanodeByHostName(host);
    return node != null ? node : manager.getDatanodeByHost(host);
  }
}
