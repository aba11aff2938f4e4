package org.locus.netns;

import java.io.File;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * Where the copy of each partition's metadata lives on a coupled cluster (issue 42 item 2,
 * seed 004 §3.2: metadata replicated with the data), and the keys that make Hadoop's own HA
 * parts serve it. This class is the one place that decides it:
 *
 * <ul>
 *   <li>partition {@code nsK} is an HA nameservice of two NameNodes named after their nodes: the
 *       <em>primary</em> on {@code nodeK} (ports {@value #PRIMARY_RPC_PORT}/{@value
 *       #PRIMARY_HTTP_PORT}) and the <em>replica</em> on the partition's replica node, the next
 *       node in ring order ({@link #replicaNode}), where the partition placement rule puts the
 *       partition's second block replica: the metadata copy sits with the data copy. Every node
 *       runs one replica NameNode beside its own primary, so the replica listens on other ports
 *       ({@value #REPLICA_RPC_PORT}/{@value #REPLICA_HTTP_PORT}) and has a configuration
 *       directory of its own ({@link #replicaConfDir});</li>
 *   <li>shared edits go through a quorum of three JournalNodes, and failover is decided through
 *       a ZooKeeper ensemble of three servers, both on the first three nodes ({@link
 *       #quorumNodes}): the first nodes are the always-on gear 0 of the default gear plan;</li>
 *   <li>each NameNode has a {@code DFSZKFailoverController} beside it (ZKFC ports {@value
 *       #PRIMARY_ZKFC_PORT} and {@value #REPLICA_ZKFC_PORT}); fencing is {@code
 *       shell(/bin/true)}, because the journal quorum already refuses a second writer (QJM
 *       epochs) and a dead node cannot be reached to fence it.</li>
 * </ul>
 *
 * <p>Copies need the three quorum nodes, so a coupled cluster of fewer than {@value
 * #QUORUM} nodes has none ({@link #enabled}): each partition then has only its primary.
 */
public final class PartitionReplicas {
  /** JournalNodes and ZooKeeper servers, each on its own node. */
  public static final int QUORUM = 3;
  static final int PRIMARY_RPC_PORT = SiteConfiguration.NAMENODE_PORT;
  static final int PRIMARY_HTTP_PORT = PartitionedNamespace.HTTP_PORT;
  static final int REPLICA_RPC_PORT = 8021;
  static final int REPLICA_HTTP_PORT = 9871;
  static final int PRIMARY_ZKFC_PORT = 8019;
  static final int REPLICA_ZKFC_PORT = 8018;
  static final int JOURNAL_RPC_PORT = 8485;
  public static final int ZOOKEEPER_CLIENT_PORT = 2181;
  /** The gear service of a replica NameNode (the node's own NameNode has the default 50110). */
  static final int REPLICA_GEAR_PORT = 50111;
  /**
   * ZooKeeper session timeout of the ZKFCs: a ZKFC that dies with its node loses the partition's
   * lock this long after its last heartbeat, which bounds failover after a node's loss.
   */
  public static final int SESSION_TIMEOUT_MS = 5000;

  private final ClusterLayout layout;
  private final int nodes;

  public PartitionReplicas(ClusterLayout layout, int nodes) {
    this.layout = layout;
    this.nodes = nodes;
  }

  /** @return whether partitions have copies: a coupled cluster of at least three nodes */
  public static boolean enabled(NetnsClusterSpec spec) {
    return enabled(spec.metadata(), spec.nodes());
  }

  /** @return whether partitions have copies on a cluster of this layout and size */
  public static boolean enabled(MetadataLayout metadata, int nodes) {
    return metadata.coupled() && nodes >= QUORUM;
  }

  /** @return the node that holds {@code nameservice}'s copy: node (K mod N) + 1 */
  public String replicaNode(String nameservice) {
    int k = ClusterLayout.index(PartitionedNamespace.nodeOf(nameservice));
    return "node" + (k % nodes + 1);
  }

  /** @return the partition whose copy {@code node} holds (the previous node's partition) */
  public String replicaOf(String node) {
    int k = ClusterLayout.index(node);
    return "ns" + ((k + nodes - 2) % nodes + 1);
  }

  /** @return the nodes running a JournalNode and a ZooKeeper server: node1..node3 */
  public static List<String> quorumNodes() {
    return ClusterLayout.workers(QUORUM);
  }

  /** @return the NameNode ids of {@code nameservice}: its primary node, then its replica node */
  public List<String> nameNodes(String nameservice) {
    return List.of(PartitionedNamespace.nodeOf(nameservice), replicaNode(nameservice));
  }

  /** @return host:port of a NameNode's RPC server ({@code node} is also its NameNode id) */
  public String rpcAddress(String nameservice, String node) {
    return layout.address(node) + ":" + (primary(nameservice, node) ? PRIMARY_RPC_PORT
        : REPLICA_RPC_PORT);
  }

  /** @return host:port of a NameNode's HTTP server, which serves its {@code /jmx} */
  public String httpAddress(String nameservice, String node) {
    return layout.address(node) + ":" + (primary(nameservice, node) ? PRIMARY_HTTP_PORT
        : REPLICA_HTTP_PORT);
  }

  private static boolean primary(String nameservice, String node) {
    return PartitionedNamespace.nodeOf(nameservice).equals(node);
  }

  /** @return the {@code qjournal://} URI of a partition's shared edits */
  public String sharedEdits(String nameservice) {
    return "qjournal://" + quorumNodes().stream()
        .map(node -> layout.address(node) + ":" + JOURNAL_RPC_PORT)
        .collect(Collectors.joining(";")) + "/" + nameservice;
  }

  /** @return the ZooKeeper connect string of the ensemble */
  public String zookeeperQuorum() {
    return quorumNodes().stream().map(node -> layout.address(node) + ":" + ZOOKEEPER_CLIENT_PORT)
        .collect(Collectors.joining(","));
  }

  /** @return the configuration directory of the replica NameNode and its ZKFC on {@code node} */
  public File replicaConfDir(String node) {
    return new File(layout.nodeDir(node), "conf-" + replicaOf(node));
  }

  /**
   * @return where the replica NameNode on {@code node} keeps its image and edits: below a
   *     directory of its own, so that what a NameNode keeps beside its name directory (the gear
   *     plug-in's state) does not mix with the node's own NameNode's
   */
  public File replicaNameDir(String node) {
    return new File(layout.nodeDir(node), "replica-" + replicaOf(node) + "/name");
  }

  /** @return a JournalNode's edits directory */
  public File journalDir(String node) {
    return new File(layout.nodeDir(node), "journal");
  }

  /** @return a ZooKeeper server's data directory (snapshots, log, {@code myid}) */
  public File zookeeperDir(String node) {
    return new File(layout.nodeDir(node), "zookeeper");
  }

  /** @return the ZooKeeper server's configuration file on {@code node} */
  public File zookeeperConfig(String node) {
    return new File(layout.nodeConfDir(node), "zoo.cfg");
  }

  /**
   * Turns the partition table {@link PartitionedNamespace} wrote into HA nameservices: each
   * partition's one address gives way to its two NameNodes, with the shared edits, the ZKFC
   * ports, ZooKeeper and fencing. Daemons and clients share these keys.
   */
  public void addSharedKeys(Configuration conf, List<String> nameservices) {
    for (String ns : nameservices) {
      conf.unset("dfs.namenode.rpc-address." + ns);
      conf.unset("dfs.namenode.http-address." + ns);
      conf.set("dfs.ha.namenodes." + ns, String.join(",", nameNodes(ns)));
      for (String node : nameNodes(ns)) {
        conf.set("dfs.namenode.rpc-address." + ns + "." + node, rpcAddress(ns, node));
        conf.set("dfs.namenode.http-address." + ns + "." + node, httpAddress(ns, node));
        conf.set("dfs.ha.zkfc.port." + ns + "." + node, Integer.toString(primary(ns, node)
            ? PRIMARY_ZKFC_PORT : REPLICA_ZKFC_PORT));
        if (!primary(ns, node)) {
          // where gear commands find the copy's gear service (the node's own NameNode has the
          // default port)
          conf.set(NdCouplingConfigKeys.GEAR_RPC_ADDRESS + "." + ns + "." + node,
              layout.address(node) + ":" + REPLICA_GEAR_PORT);
        }
      }
      conf.set("dfs.namenode.shared.edits.dir." + ns, sharedEdits(ns));
    }
    conf.set("dfs.ha.automatic-failover.enabled", "true");
    conf.set("ha.zookeeper.quorum", zookeeperQuorum());
    conf.set("ha.zookeeper.session-timeout.ms", Integer.toString(SESSION_TIMEOUT_MS));
    conf.set("dfs.ha.fencing.methods", "shell(/bin/true)");
    // A standby applies the journal every 2 s (stock: 60 s), so it is close behind when it
    // takes over and its reads are fresh.
    conf.set("dfs.ha.tail-edits.period", "2s");
    // ... including the segment the active is writing (stock: finished segments only, which
    // the active closes every 2 minutes): a node switched on again catches up within seconds.
    conf.set("dfs.ha.tail-edits.in-progress", "true");
    // Clients retry the other NameNode at most 2 s apart (stock: up to 15 s), up to 30 times,
    // so an operation issued during a failover completes soon after the copy takes over.
    conf.set("dfs.client.failover.sleep.max.millis", "2000");
    conf.set("dfs.client.failover.max.attempts", "30");
  }

  /** Adds the keys of the node's own (primary) NameNode and ZKFC: its NameNode id. */
  public void addPrimaryKeys(Configuration conf, String node) {
    conf.set("dfs.ha.namenode.id", node);
    if (quorumNodes().contains(node)) {
      conf.set("dfs.journalnode.edits.dir", journalDir(node).getPath());
    }
  }

  /**
   * Turns a node's keys into those of the replica NameNode and ZKFC on it: the partition it
   * copies, its NameNode id, its own name directory, a gear service port of its own.
   */
  public void addReplicaKeys(Configuration conf, String node) {
    String ns = replicaOf(node);
    conf.set("dfs.nameservice.id", ns);
    conf.set("dfs.ha.namenode.id", node);
    conf.set("dfs.namenode.name.dir", replicaNameDir(node).toURI().toString());
    conf.set("fs.defaultFS", PartitionedNamespace.uri(ns).toString());
    conf.set(NdCouplingConfigKeys.GEAR_RPC_ADDRESS, "0.0.0.0:" + REPLICA_GEAR_PORT);
  }

  /** @return the text of the ZooKeeper server's {@code zoo.cfg} on {@code node} */
  public String zookeeperConfigText(String node) {
    StringBuilder text = new StringBuilder();
    // tickTime 1 s lets sessions be as short as 2 s; the ZKFCs ask for SESSION_TIMEOUT_MS
    text.append("tickTime=1000\ninitLimit=10\nsyncLimit=5\n");
    text.append("dataDir=").append(zookeeperDir(node).getPath()).append('\n');
    text.append("clientPort=").append(ZOOKEEPER_CLIENT_PORT).append('\n');
    text.append("admin.enableServer=false\n");
    text.append("4lw.commands.whitelist=srvr,ruok\n");
    text.append("autopurge.purgeInterval=1\n");
    for (String server : quorumNodes()) {
      text.append("server.").append(ClusterLayout.index(server)).append('=')
          .append(layout.address(server)).append(":2888:3888\n");
    }
    return text.toString();
  }
}
