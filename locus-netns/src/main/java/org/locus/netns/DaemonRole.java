package org.locus.netns;

/**
 * The stock Hadoop 3.5.0 daemons a netns cluster runs, with their main classes and heap caps
 * (sized so a master and four nodes fit beside the rest of a 2-core, 24 GiB machine; resident
 * sizes measured here: NN ~230 MB, RM ~290 MB, DN ~190 MB, NM 330-400 MB).
 *
 * <p>The order is the order a node's daemons start in: a partition's metadata quorum
 * (ZooKeeper, JournalNode) comes before the NameNodes that write to it, and a ZKFC after the
 * NameNode it watches. The metadata copies of a coupled cluster ({@link PartitionReplicas}) add
 * the quorum daemons, the replica NameNode of the previous node's partition and a ZKFC beside
 * each NameNode.
 */
public enum DaemonRole {
  ZOOKEEPER("zookeeper", "org.apache.zookeeper.server.quorum.QuorumPeerMain", 64),
  JOURNALNODE("journalnode", "org.apache.hadoop.hdfs.qjournal.server.JournalNode", 96),
  NAMENODE("namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode", 320),
  RESOURCEMANAGER("resourcemanager",
      "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager", 384),
  HISTORYSERVER("historyserver", "org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer", 256),
  DATANODE("datanode", "org.apache.hadoop.hdfs.server.datanode.DataNode", 256),
  NODEMANAGER("nodemanager", "org.apache.hadoop.yarn.server.nodemanager.NodeManager", 320),
  /** The NameNode of the previous node's partition on its replica node (standby until needed). */
  REPLICA_NAMENODE("replica-namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode", 256),
  ZKFC("zkfc", "org.apache.hadoop.hdfs.tools.DFSZKFailoverController", 48),
  REPLICA_ZKFC("replica-zkfc", "org.apache.hadoop.hdfs.tools.DFSZKFailoverController", 48);

  private final String word;
  private final String mainClass;
  private final int heapMb;

  DaemonRole(String word, String mainClass, int heapMb) {
    this.word = word;
    this.mainClass = mainClass;
    this.heapMb = heapMb;
  }

  /** @return the role's name on the command line, e.g. {@code datanode} */
  public String word() {
    return word;
  }

  public String mainClass() {
    return mainClass;
  }

  public int heapMb() {
    return heapMb;
  }

  /**
   * @return the account the role runs as when a cluster runs its daemons as their own users
   *     ({@link DaemonUsers}): HDFS's daemons and the ZooKeeper of its failover as
   *     {@code hdfs}, YARN's as {@code yarn}, the JobHistory server as {@code mapred}
   */
  public String user() {
    return switch (this) {
      case RESOURCEMANAGER, NODEMANAGER -> DaemonUsers.YARN;
      case HISTORYSERVER -> DaemonUsers.MAPRED;
      default -> DaemonUsers.HDFS;
    };
  }

  /** @return whether the role runs on a worker node (else on the master) */
  public boolean onWorker() {
    return this == DATANODE || this == NODEMANAGER;
  }

  /** @return the role named {@code word}; an unknown word names the accepted ones */
  public static DaemonRole of(String word) {
    for (DaemonRole role : values()) {
      if (role.word.equals(word)) {
        return role;
      }
    }
    throw new IllegalArgumentException("unknown role '" + word + "'; one of "
        + java.util.Arrays.stream(values()).map(DaemonRole::word)
            .collect(java.util.stream.Collectors.joining(", ")));
  }
}
