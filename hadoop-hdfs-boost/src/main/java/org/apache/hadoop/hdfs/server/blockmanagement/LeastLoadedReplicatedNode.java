package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;

/**
 * Picks the node that takes a new SUPERLOCAL block's REPLICATED replica when the writer is not
 * a DataNode: of {@code choices} nodes drawn at random among those with REPLICATED storage, the
 * one that took the fewest REPLICATED replicas of the block's directory so far, and of those the
 * one holding the fewest REPLICATED replicas in all (the ones scheduled to arrive counted too).
 *
 * <p>Why: a map runs superlocal only on the one node holding its block's REPLICATED replica, and
 * a node runs only so many maps at once. Stock placement draws that node at random, so some
 * nodes hold several times the average (e.g. 11 and 2 of 36 blocks on five nodes) and their
 * blocks are read by maps elsewhere. Comparing a couple of random nodes (the "power of two
 * choices") spreads the replicas almost evenly at constant cost per block. A job reads a
 * dataset, usually one directory, so the spread that counts is the directory's: balancing only
 * the cluster's totals would let a second dataset make up for the first one's unevenness (one
 * node held none of a 12-block input that way). The per-directory tallies are this class's own,
 * in memory, for the {@value #DIRECTORIES} directories written to most recently; after a
 * NameNode restart a directory's new blocks are spread from scratch. A writer on a DataNode
 * keeps the stock choice, which starts from the writer's own node.
 *
 * <p>In Hadoop's package to count a storage's blocks ({@code DatanodeStorageInfo#numBlocks}).
 */
final class LeastLoadedReplicatedNode {
  /** How many directories' tallies are kept (least recently written ones are dropped). */
  static final int DIRECTORIES = 4096;

  private final NetworkTopology cluster;
  private final StorageType replicated;
  private final int choices;
  /** Per directory, REPLICATED replicas chosen per node (datanode UUID). */
  private final Map<String, Map<String, Integer>> tallies =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Map<String, Integer>> eldest) {
          return size() > DIRECTORIES;
        }
      };

  LeastLoadedReplicatedNode(NetworkTopology cluster, StorageType replicated, int choices) {
    if (choices < 1) {
      throw new IllegalArgumentException("locus.boost.placement.replicated-choices must be at"
          + " least 1, got " + choices);
    }
    this.cluster = cluster;
    this.replicated = replicated;
    this.choices = choices;
  }

  /** @return how many nodes are compared; 1 means the stock random choice */
  int choices() {
    return choices;
  }

  /**
   * @param excluded nodes the writer must not use (may be null)
   * @param directory the REPLICATED replicas of the block's directory placed so far, per node
   * @return of up to {@code choices} random in-service nodes with REPLICATED storage outside
   *     {@code excluded}, the one with the fewest in {@code directory}, then in all; null if
   *     there is none (the stock choice applies)
   */
  private DatanodeDescriptor choose(Set<Node> excluded, Map<String, Integer> directory) {
    Set<Node> skip = excluded == null ? new HashSet<>() : new HashSet<>(excluded);
    DatanodeDescriptor best = null;
    long bestInDirectory = Long.MAX_VALUE;
    long bestLoad = Long.MAX_VALUE;
    int compared = 0;
    int draws = 0;
    int limit = 4 * choices + cluster.getNumOfLeaves();
    while (compared < choices && draws++ < limit) {
      Node node = cluster.chooseRandom(NodeBase.ROOT, skip);
      if (!(node instanceof DatanodeDescriptor candidate)) {
        break;
      }
      skip.add(candidate);
      if (!candidate.isInService() || !candidate.hasStorageType(replicated)) {
        continue;
      }
      compared++;
      long inDirectory = directory.getOrDefault(candidate.getDatanodeUuid(), 0);
      long load = replicatedBlocks(candidate);
      if (inDirectory < bestInDirectory || (inDirectory == bestInDirectory && load < bestLoad)) {
        best = candidate;
        bestInDirectory = inDirectory;
        bestLoad = load;
      }
    }
    return best;
  }

  /**
   * @param src the path of the file the block belongs to
   * @param excluded nodes the writer must not use (may be null)
   * @param blockSize the new block's size
   * @return the REPLICATED storage with the most room on the node picked for the file's
   *     directory, if it has room for this block besides those already on their way (the
   *     directory's tally then counts it); null where it has none (the stock choice applies)
   */
  synchronized DatanodeStorageInfo chooseStorage(String src, Set<Node> excluded,
      long blockSize) {
    String dir = directoryOf(src);
    Map<String, Integer> directory = tallies.computeIfAbsent(dir, d -> new HashMap<>());
    DatanodeDescriptor node = choose(excluded, directory);
    if (node == null) {
      return null;
    }
    long needed = blockSize * (node.getBlocksScheduled(replicated) + 1L);
    DatanodeStorageInfo roomiest = null;
    for (DatanodeStorageInfo storage : node.getStorageInfos()) {
      if (storage.getStorageType() == replicated
          && storage.getState() == DatanodeStorage.State.NORMAL
          && storage.getRemaining() >= needed
          && (roomiest == null || storage.getRemaining() > roomiest.getRemaining())) {
        roomiest = storage;
      }
    }
    if (roomiest != null) {
      directory.merge(node.getDatanodeUuid(), 1, Integer::sum);
    }
    return roomiest;
  }

  /** @return the parent directory of {@code src}, or {@code src} itself at the root */
  static String directoryOf(String src) {
    int slash = src == null ? -1 : src.lastIndexOf('/');
    return slash > 0 ? src.substring(0, slash) : "/";
  }

  /** REPLICATED replicas a node holds or is about to receive. */
  private long replicatedBlocks(DatanodeDescriptor node) {
    long blocks = node.getBlocksScheduled(replicated);
    for (DatanodeStorageInfo storage : node.getStorageInfos()) {
      if (storage.getStorageType() == replicated) {
        blocks += storage.numBlocks();
      }
    }
    return blocks;
  }
}
