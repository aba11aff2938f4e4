package org.locus.ndcoupling;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.locus.kit.ClusterNode;
import org.locus.kit.LocusMiniCluster;
import org.locus.ndcoupling.rpc.GearClient;
import org.locus.ndcoupling.rpc.GearProtocol;
import org.locus.ndcoupling.shift.GearShifter;
import org.locus.ndcoupling.shift.NodeSwitch;

/**
 * The embedded cluster of the gear tests: the feature's own key set (conf/features/
 * ndcoupling.xml), four nodes, gear 0 = nodes 1 and 2, gear 1 = all four; and a
 * {@link NodeSwitch} that stops and restarts the mini cluster's DataNodes by host.
 */
public final class GearTestCluster implements NodeSwitch, AutoCloseable {
  public static final int FILE_BYTES = 64 * 1024;

  private final LocusMiniCluster cluster;
  private final Map<String, MiniDFSCluster.DataNodeProperties> stopped = new HashMap<>();
  private final int rpcPort;
  private final String name;
  private GearClient client;

  private GearTestCluster(LocusMiniCluster cluster, int rpcPort, String name) {
    this.cluster = cluster;
    this.rpcPort = rpcPort;
    this.name = name;
  }

  /** Starts the cluster with the ndcoupling keys, the plan and {@code extra} keys. */
  public static GearTestCluster start(String name, Configuration extra) throws IOException {
    int port = freePort();
    int batchPort = freePort();
    File base = new File("target/test-clusters/" + name);
    org.apache.hadoop.fs.FileUtil.fullyDelete(base);
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(base).nodes(4)
        .setAll(LocusMiniCluster.featureKeys("ndcoupling"))
        .set("dfs.replication", "2")
        .set("dfs.blocksize", "1048576")
        .set(NdCouplingConfigKeys.GEAR_PLAN, "127.0.0.2,127.0.0.3;127.0.0.4,127.0.0.5")
        .set(NdCouplingConfigKeys.GEAR_RPC_ADDRESS, "127.0.0.1:" + port)
        .set(NdCouplingConfigKeys.GEAR_DIR, new File(base, "gears").getAbsolutePath())
        .set(NdCouplingConfigKeys.GEAR_REISSUE_SECONDS, "5")
        .set(NdCouplingConfigKeys.BATCH_TRANSFER_PORT, Integer.toString(batchPort))
        .set("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
    if (extra != null) {
      builder.setAll(extra);
    }
    return new GearTestCluster(builder.start(), port, name);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** @return fsck's report of the whole namespace */
  public String fsck() throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    new org.apache.hadoop.hdfs.tools.DFSck(cluster.getConfiguration(),
        new java.io.PrintStream(out, true, "UTF-8")).run(new String[] {"/"});
    return out.toString("UTF-8");
  }

  public LocusMiniCluster cluster() {
    return cluster;
  }

  public DistributedFileSystem fs() throws IOException {
    return cluster.getFileSystem();
  }

  /** @return the NameNode's gear service (one client, connected on first use) */
  public GearProtocol gears() throws IOException {
    if (client == null) {
      client = GearClient.connect(cluster.getConfiguration(),
          new java.net.InetSocketAddress("127.0.0.1", rpcPort));
    }
    return client.gears();
  }

  /** Restarts the NameNode and connects to its new gear service. */
  public void restartNameNode() throws IOException {
    if (client != null) {
      client.close();
      client = null;
    }
    cluster.getDfsCluster().restartNameNode(true);
  }

  /** @return a shifter that switches this cluster's DataNodes and says nothing */
  public GearShifter shifter() throws IOException {
    return new GearShifter(gears(), this, 120_000, line -> { });
  }

  /** @return the NameNode's gear status as a map */
  public Map<String, String> status() throws IOException {
    return GearShifter.parse(gears().status());
  }

  /** @return the update log the NameNode writes */
  public java.nio.file.Path logFile() {
    return new File("target/test-clusters/" + name + "/gears/update.log").toPath();
  }

  /** @return the hosts of the cluster's nodes, node 1 first */
  public List<String> hosts() {
    return cluster.nodes().stream().map(ClusterNode::host).toList();
  }

  @Override
  public void off(String host) throws IOException {
    MiniDFSCluster dfs = cluster.getDfsCluster();
    for (DataNode dn : dfs.getDataNodes()) {
      if (dn.getDatanodeId().getIpAddr().equals(host)) {
        stopped.put(host, dfs.stopDataNode(dn.getDatanodeId().getXferAddr()));
        return;
      }
    }
    throw new IOException("no running DataNode on " + host);
  }

  @Override
  public void on(String host) throws IOException {
    MiniDFSCluster.DataNodeProperties properties = stopped.remove(host);
    if (properties == null) {
      throw new IOException("the DataNode on " + host + " was not stopped by this switch");
    }
    cluster.getDfsCluster().restartDataNode(properties, true);
  }

  /** Writes {@code count} one-block files of seeded random bytes under {@code dir}. */
  public static Map<Path, byte[]> writeFiles(DistributedFileSystem fs, String dir, int count,
      long seed) throws IOException {
    Map<Path, byte[]> files = new HashMap<>();
    Random random = new Random(seed);
    for (int i = 0; i < count; i++) {
      byte[] data = new byte[FILE_BYTES];
      random.nextBytes(data);
      Path file = new Path(dir, "f" + i);
      try (FSDataOutputStream out = fs.create(file)) {
        out.write(data);
      }
      files.put(file, data);
    }
    return files;
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
    cluster.close();
  }
}
