package org.locus.netns;

import java.io.File;
import java.net.URI;
import java.util.List;

import org.apache.hadoop.conf.Configuration;

/**
 * The namespace of a coupled ({@link MetadataLayout#SDP}) netns cluster as HDFS federation:
 * node {@code k} is partition {@code nsk}, served by the NameNode on that node. This class is
 * the one place that names partitions and writes their keys.
 *
 * <p>Every daemon and client gets the same partition table: {@code dfs.nameservices} lists
 * every partition and {@code dfs.namenode.rpc-address.NS} / {@code http-address.NS} say where
 * its NameNode listens. A DataNode registers with every NameNode of that list (one block pool
 * each). A client reaches partition {@code NS} as {@code hdfs://NS/}: a nameservice URI is
 * logical, so the client needs {@code dfs.client.failover.proxy.provider.NS}; Hadoop's
 * {@code ConfiguredFailoverProxyProvider} reads the one rpc-address of a nameservice without
 * NameNode ids, and HA stays off because a nameservice with one address is not HA. An HA pair
 * later adds {@code dfs.ha.namenodes.NS} and per-NameNode addresses under the same names.
 *
 * <p>Each node's own configuration adds {@code dfs.nameservice.id} (which partition its
 * NameNode serves, so it binds that partition's addresses), its name directory, and its own
 * partition as {@code fs.defaultFS}. All NameNodes are formatted with one cluster ID
 * ({@link #clusterId}), which a DataNode requires of every NameNode it serves.
 */
public final class PartitionedNamespace {
  /** The NameNode's HTTP port on its node (Hadoop's default). */
  static final int HTTP_PORT = 9870;
  /** The client file system of the coupled namespace (issue 42 item 3, docs/ndcoupling.md). */
  static final String LOCUS_FILE_SYSTEM = "org.locus.ndcoupling.client.LocusFileSystem";
  /** The same for FileContext users (the JobHistory server, the MapReduce AM). */
  static final String LOCUS_FS = "org.locus.ndcoupling.client.LocusFs";
  /** The client-side provider that turns a logical nameservice URI into its NameNode. */
  static final String PROXY_PROVIDER =
      "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider";

  private final ClusterLayout layout;
  private final int nodes;

  public PartitionedNamespace(ClusterLayout layout, int nodes) {
    this.layout = layout;
    this.nodes = nodes;
  }

  /** @return the partition (nameservice) whose NameNode runs on {@code node}: nodeK is nsK */
  public static String nameservice(String node) {
    int index = ClusterLayout.index(node);
    if (index < 1) {
      throw new IllegalArgumentException("only worker nodes (node1..nodeN) hold a partition,"
          + " not '" + node + "'");
    }
    return "ns" + index;
  }

  /** @return the worker whose NameNode serves partition {@code nameservice} */
  public static String nodeOf(String nameservice) {
    if (!nameservice.matches("ns[1-9][0-9]*")) {
      throw new IllegalArgumentException("not a partition name: '" + nameservice
          + "' (ns1..nsN)");
    }
    return "node" + nameservice.substring(2);
  }

  /** @return ns1 .. nsN */
  public List<String> nameservices() {
    return ClusterLayout.workers(nodes).stream().map(PartitionedNamespace::nameservice)
        .toList();
  }

  /** @return the file system URI of a partition, e.g. {@code hdfs://ns2} */
  public static URI uri(String nameservice) {
    return URI.create("hdfs://" + nameservice);
  }

  /** @return the cluster ID every NameNode is formatted with (one per cluster directory) */
  public String clusterId() {
    return "CID-locus-" + layout.id();
  }

  /** @return where the NameNode of {@code node} keeps its image and edits */
  public File nameDir(String node) {
    return new File(layout.nodeDir(node), "name");
  }

  /**
   * Adds the partition table every daemon and client shares; the default file system is the
   * whole coupled namespace entered at the first node, {@code locus://ns1/}, whose mount table
   * sends each path to its partition.
   */
  public void addSharedKeys(Configuration conf) {
    List<String> all = nameservices();
    conf.set("dfs.nameservices", String.join(",", all));
    for (String ns : all) {
      String address = layout.address(nodeOf(ns));
      conf.set("dfs.namenode.rpc-address." + ns, address + ":" + SiteConfiguration.NAMENODE_PORT);
      conf.set("dfs.namenode.http-address." + ns, address + ":" + HTTP_PORT);
      conf.set("dfs.client.failover.proxy.provider." + ns, PROXY_PROVIDER);
    }
    conf.set("fs.locus.impl", LOCUS_FILE_SYSTEM);
    conf.set("fs.AbstractFileSystem.locus.impl", LOCUS_FS);
    conf.set("fs.defaultFS", "locus://" + all.get(0) + "/");
  }

  /** Adds the keys of the NameNode on {@code node}: its partition, name directory, default. */
  public void addNameNodeKeys(Configuration conf, String node) {
    String ns = nameservice(node);
    conf.set("dfs.nameservice.id", ns);
    conf.set("dfs.namenode.name.dir", nameDir(node).toURI().toString());
    conf.set("fs.defaultFS", uri(ns).toString());
  }
}
