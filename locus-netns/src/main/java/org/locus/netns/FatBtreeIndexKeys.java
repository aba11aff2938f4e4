package org.locus.netns;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;

/**
 * The keys of a {@link MetadataLayout#FATBTREE} cluster's path index (docs/ndcoupling.md,
 * "FBB"): node {@code k}'s NameNode hosts Fat-Btree index node {@code k} (the
 * {@code FatBtreeNameNodePlugin} of {@code hadoop-hdfs-ndcoupling}, loaded from the dist
 * bundle), serving it at the node's address, port {@link #PORT}. An index node's id is its
 * partition's number, so an owner in the index names partition {@code nsk} as {@code k}.
 *
 * <p>With three or more nodes (the partitions then have copies and the gears switch whole
 * nodes) every index node keeps a copy of the previous node's pages and mirrors its own to the
 * next ({@link #COPIES}), so that a node switched off whole leaves its index pages answered
 * by the next node, as its partition is by the copy there. A cluster is formatted afresh at
 * every {@code up}, which copies need (they start with the tree). A node's replica NameNode
 * (the copy of the previous partition) hosts no index node: the node's index node is its own
 * NameNode's, and two would contend for the node's index port.
 *
 * <p>Every site file lists every index node ({@code locus.ndcoupling.index.peers}), so a
 * client on any node or on the host finds the index server of the node it runs on. The key
 * names are the ndcoupling module's ({@code NdCouplingConfigKeys}); this module does not depend
 * on it, so they are written out here.
 */
public final class FatBtreeIndexKeys {
  /** The index server's port on every node. */
  public static final int PORT = 50130;
  static final String PLUGINS = "dfs.namenode.plugins";
  static final String PLUGIN = "org.locus.ndcoupling.namenode.FatBtreeNameNodePlugin";
  static final String NODE_ID = "locus.ndcoupling.index.node-id";
  static final String PEERS = "locus.ndcoupling.index.peers";
  static final String COPIES = "locus.ndcoupling.index.copies";
  /** {@code locusfbt://} for FileContext users; FileSystem users find it by service loader. */
  static final String FILE_CONTEXT_IMPL = "fs.AbstractFileSystem.locusfbt.impl";
  static final String FILE_CONTEXT_CLASS = "org.locus.ndcoupling.fatbtree.client.FatBtreeFs";

  private final ClusterLayout layout;
  private final int nodes;

  public FatBtreeIndexKeys(ClusterLayout layout, int nodes) {
    this.layout = layout;
    this.nodes = nodes;
  }

  /** @return the index node id of {@code node} (nodeK is K, like its partition nsK) */
  public static int nodeId(String node) {
    return ClusterLayout.index(node);
  }

  /**
   * Adds the peer list every daemon and client shares, and {@code locusfbt://}'s
   * {@code FileContext} class, so a client (a job's too) can reach every path through the index.
   */
  public void addSharedKeys(Configuration conf) {
    List<String> peers = new ArrayList<>();
    for (String node : ClusterLayout.workers(nodes)) {
      peers.add(nodeId(node) + "=" + layout.address(node) + ":" + PORT);
    }
    conf.set(PEERS, String.join(",", peers));
    if (hasCopies(nodes)) {
      // the index nodes read it; the gear commands switch the index with whole nodes by it
      conf.setBoolean(COPIES, true);
    }
    conf.set(FILE_CONTEXT_IMPL, FILE_CONTEXT_CLASS);
  }

  /**
   * Adds the keys of the index node on {@code node}: its id, and the plug-in appended to the
   * NameNode plug-ins already listed (a feature's, such as the gears', stay).
   */
  public void addNameNodeKeys(Configuration conf, String node) {
    conf.set(NODE_ID, Integer.toString(nodeId(node)));
    Set<String> plugins = new LinkedHashSet<>(conf.getTrimmedStringCollection(PLUGINS));
    plugins.add(PLUGIN);
    conf.set(PLUGINS, String.join(",", plugins));
  }

  /**
   * Takes the index node out of a replica NameNode's keys (which start as its node's own
   * NameNode's): the plug-in and the node id.
   */
  public void removeNameNodeKeys(Configuration conf) {
    conf.unset(NODE_ID);
    Set<String> plugins = new LinkedHashSet<>(conf.getTrimmedStringCollection(PLUGINS));
    plugins.remove(PLUGIN);
    if (plugins.isEmpty()) {
      conf.unset(PLUGINS);
    } else {
      conf.set(PLUGINS, String.join(",", plugins));
    }
  }

  /**
   * @return whether the index nodes of a cluster of {@code nodes} keep copies: when its
   *     partitions have copies ({@link PartitionReplicas#enabled}), so that its gears switch
   *     whole nodes
   */
  public static boolean hasCopies(int nodes) {
    return PartitionReplicas.enabled(MetadataLayout.FATBTREE, nodes);
  }
}
