package org.locus.ndcoupling;

/**
 * Every configuration key of NDCouplingHDFS, with its default and a one-line meaning. Keys are
 * grouped by the part of the feature that reads them. Documented in docs/ndcoupling.md.
 */
public final class NdCouplingConfigKeys {
  private NdCouplingConfigKeys() {
  }


  // batch transfer (seed 004 §4.3 step 3): the DataNode plug-in that sends many blocks to one
  // target over one connection, org.locus.ndcoupling.transfer.BatchTransferService

  /** Bytes per second each outgoing batch connection may send; 0 = unthrottled. */
  public static final String BATCH_TRANSFER_BANDWIDTH_PER_SEC =
      "locus.ndcoupling.batch-transfer.bandwidth-per-sec";
  public static final long BATCH_TRANSFER_BANDWIDTH_PER_SEC_DEFAULT = 0;

  /** Connections a source opens to one target for one push; the batch is split among them. */
  public static final String BATCH_TRANSFER_CONNECTIONS_PER_TARGET =
      "locus.ndcoupling.batch-transfer.connections-per-target";
  public static final int BATCH_TRANSFER_CONNECTIONS_PER_TARGET_DEFAULT = 1;

  /** Connections (pushes and incoming batches) one DataNode's service serves at once. */
  public static final String BATCH_TRANSFER_MAX_SESSIONS =
      "locus.ndcoupling.batch-transfer.max-sessions";
  public static final int BATCH_TRANSFER_MAX_SESSIONS_DEFAULT = 16;

  /**
   * TCP port of the service, on the DataNode's transfer address; 0 = any free port (tests), the
   * bound one published as the ListenPort metric.
   */
  public static final String BATCH_TRANSFER_PORT = "locus.ndcoupling.batch-transfer.port";
  public static final int BATCH_TRANSFER_PORT_DEFAULT = 50120;

  /** Milliseconds a peer may stay silent on a batch connection before it is given up. */
  public static final String BATCH_TRANSFER_SOCKET_TIMEOUT_MS =
      "locus.ndcoupling.batch-transfer.socket-timeout-ms";
  public static final int BATCH_TRANSFER_SOCKET_TIMEOUT_MS_DEFAULT = 60_000;

  // gears (seed 004 §4.3): the plan, the update log and the gear service in the NameNode,
  // org.locus.ndcoupling.namenode.GearNameNodePlugin

  /**
   * The gear plan: groups of DataNode hosts separated by ';', each group a comma-separated list
   * of host names or IP addresses. Gear 0 is the first group (the covering set, always on); gear
   * k adds the k-th group. Empty: gears off, every block placed as stock.
   */
  public static final String GEAR_PLAN = "locus.ndcoupling.gear.plan";

  /**
   * Which active node stands in for a node of a higher group while it is off, as
   * {@code host=standIn} pairs separated by commas. A stand-in must be in a lower group than the
   * node it stands in for. Unnamed nodes get the nodes of gear 0 in turn.
   */
  public static final String GEAR_STAND_INS = "locus.ndcoupling.gear.stand-ins";

  /**
   * Directory on the NameNode's machine that holds the update log, the current gear and the
   * maintenance hosts file the NameNode is refreshed from. Default: a {@code locus-gears}
   * directory beside the first {@code dfs.namenode.name.dir}.
   */
  public static final String GEAR_DIR = "locus.ndcoupling.gear.dir";

  /** Host:port of the gear RPC server in the NameNode; port 0 picks a free one (tests). */
  public static final String GEAR_RPC_ADDRESS = "locus.ndcoupling.gear.rpc-address";
  public static final int GEAR_RPC_PORT_DEFAULT = 50110;

  /** Handler threads of the gear RPC server. */
  public static final String GEAR_RPC_HANDLERS = "locus.ndcoupling.gear.rpc-handlers";
  public static final int GEAR_RPC_HANDLERS_DEFAULT = 2;

  /**
   * How a real cluster switches a DataNode off and on for a gear shift: a command line split on
   * whitespace and run without a shell, {@code {host}} replaced by the node's host; e.g.
   * {@code ssh {host} hdfs --daemon stop datanode}. Unset on a netns cluster, whose nodes the
   * CLI stops itself.
   */
  public static final String GEAR_STOP_COMMAND = "locus.ndcoupling.gear.stop-command";
  public static final String GEAR_START_COMMAND = "locus.ndcoupling.gear.start-command";

  /** How long a shift waits for leaving nodes to enter maintenance or returning ones to report. */
  public static final String GEAR_SHIFT_TIMEOUT_SECONDS = "locus.ndcoupling.gear.shift-timeout";
  public static final int GEAR_SHIFT_TIMEOUT_SECONDS_DEFAULT = 300;

  /**
   * When no block has reached its intended node for this long, gear-up issues the moves left
   * again, each from a live holder of its block (a source, a command or a connection may have
   * been lost).
   */
  public static final String GEAR_REISSUE_SECONDS = "locus.ndcoupling.gear.reissue-interval";
  public static final int GEAR_REISSUE_SECONDS_DEFAULT = 10;

  // coupled nodes (issue 42): where a partition's replicas live,
  // org.apache.hadoop.hdfs.server.blockmanagement.PartitionPlacementRule

  /**
   * The coupled nodes in ring order, host names or IP addresses separated by commas: a
   * partition's replicas go to its own node and the nodes after it in this order. Default: the
   * host of {@code dfs.namenode.rpc-address.NS} for each NS of {@code dfs.nameservices}, in
   * that order (federation with one NameNode per node).
   */
  public static final String PARTITION_RING = "locus.ndcoupling.partition.ring";

  /**
   * This NameNode's own node, a host of the ring. Default: the host of
   * {@code dfs.namenode.rpc-address.NS} for this NameNode's {@code dfs.nameservice.id}.
   */
  public static final String PARTITION_HOME = "locus.ndcoupling.partition.home";

  // Fat-Btree index (issue 43): one node of the distributed path index, served over Hadoop RPC
  // by org.locus.ndcoupling.namenode.FatBtreeNameNodePlugin or IndexNodeService

  /** This node's id in the index; unset: no index on this NameNode. */
  public static final String INDEX_NODE_ID = "locus.ndcoupling.index.node-id";

  /**
   * Every node's index server, {@code id=host:port} separated by commas, this node's own
   * included (it binds there; port 0 picks a free one, for tests).
   */
  public static final String INDEX_PEERS = "locus.ndcoupling.index.peers";

  /**
   * Directory of this node's page files; formatted as a new tree's node when empty. Default: a
   * {@code locus-index} directory beside the first {@code dfs.namenode.name.dir}.
   */
  public static final String INDEX_DIR = "locus.ndcoupling.index.dir";

  /** Handler threads of the index server; must exceed the index operations in flight. */
  public static final String INDEX_RPC_HANDLERS = "locus.ndcoupling.index.rpc-handlers";
  public static final int INDEX_RPC_HANDLERS_DEFAULT = 16;

  /** Keys per leaf before it splits (seed 004 Table 5: 16); every node must agree. */
  public static final String INDEX_LEAF_CAPACITY = "locus.ndcoupling.index.leaf-capacity";
  public static final int INDEX_LEAF_CAPACITY_DEFAULT = 16;

  /** Children per index page before it splits; every node must agree. */
  public static final String INDEX_PAGE_CAPACITY = "locus.ndcoupling.index.page-capacity";
  public static final int INDEX_PAGE_CAPACITY_DEFAULT = 16;

  /** Fsync every page write; turn off only in tests. */
  public static final String INDEX_SYNC_WRITES = "locus.ndcoupling.index.sync-writes";
  public static final boolean INDEX_SYNC_WRITES_DEFAULT = true;

  /**
   * Copies of upper index pages fetched from other nodes that a node keeps for later lookups
   * (least recently used out first); 0 turns the cache off.
   */
  public static final String INDEX_CACHED_PAGES = "locus.ndcoupling.index.cached-pages";
  public static final int INDEX_CACHED_PAGES_DEFAULT = 1024;

  /**
   * How long a node keeps its operation gate closed for a switch of a whole node (off, back)
   * before opening it by itself because the switch's coordinator did not; in ms.
   */
  public static final String INDEX_SWITCH_LEASE_MS = "locus.ndcoupling.index.switch-lease-ms";
  public static final long INDEX_SWITCH_LEASE_MS_DEFAULT = 60_000;

  /**
   * Whether every index node keeps a copy of its ring predecessor's pages, its own writes
   * mirrored to its successor (a {@code CopiedIndexNode}), so that whole nodes can be switched
   * off. Off by default: copies start with a new tree (an empty copy directory is formatted), so
   * they cannot be switched on for a tree that already has pages; {@code --metadata fatbtree}
   * clusters of three or more nodes, formatted fresh and the ones whose gears switch whole
   * nodes, set it.
   */
  public static final String INDEX_COPIES = "locus.ndcoupling.index.copies";
  public static final boolean INDEX_COPIES_DEFAULT = false;

  // static directory partitioning (seed 004 §4.2.1): the mount table of the coupled namespace
  // and the client file system that serves it, org.locus.ndcoupling.client.LocusFileSystem

  /** Directory inside every partition that holds the mount table's versions. */
  public static final String MOUNT_DIR = "locus.ndcoupling.mount.dir";
  public static final String MOUNT_DIR_DEFAULT = "/.locus/mounts";

  /**
   * Top-level directories the default mount table (no version stored yet) deals round-robin
   * over the partitions of {@code dfs.nameservices}; {@code /} is on the first partition.
   */
  public static final String MOUNT_DEFAULT_DIRS = "locus.ndcoupling.mount.default-dirs";
  public static final String MOUNT_DEFAULT_DIRS_DEFAULT = "user,tmp,data,apps";

  /**
   * Class of the {@code PartitionResolver} a {@code locus://} file system asks which partition
   * owns a subtree. Default: the mount table stored in the entry node's partition.
   */
  public static final String MOUNT_RESOLVER = "locus.ndcoupling.mount.resolver";

  /**
   * How often a running {@code locus://} client asks its entry node for the mount table's
   * version (a duration: {@code 10s}, {@code 500ms}; a bare number is milliseconds); a changed
   * version is loaded and swapped in whole. 0 = at every call.
   */
  public static final String MOUNT_REFRESH_INTERVAL = "locus.ndcoupling.mount.refresh-interval";
  public static final String MOUNT_REFRESH_INTERVAL_DEFAULT = "10s";
}
