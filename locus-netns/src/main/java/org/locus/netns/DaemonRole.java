package org.locus.netns;

/**
 * The stock Hadoop 3.5.0 daemons a netns cluster runs, with their main classes and heap caps
 * (sized so a master and four nodes fit beside the rest of a 2-core, 24 GiB machine; resident
 * sizes measured here: NN ~230 MB, RM ~290 MB, DN ~190 MB, NM 330-400 MB).
 */
public enum DaemonRole {
  NAMENODE("namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode", 320),
  RESOURCEMANAGER("resourcemanager",
      "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager", 384),
  HISTORYSERVER("historyserver", "org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer", 256),
  DATANODE("datanode", "org.apache.hadoop.hdfs.server.datanode.DataNode", 256),
  NODEMANAGER("nodemanager", "org.apache.hadoop.yarn.server.nodemanager.NodeManager", 320);

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
    throw new IllegalArgumentException("unknown role '" + word + "'; one of namenode,"
        + " resourcemanager, historyserver, datanode, nodemanager");
  }
}
