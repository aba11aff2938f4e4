package org.locus.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.kit.net.LocalAddressSocketFactory;

/** The kit's HDFS side: distinct hosts, typed volumes, racks, client configuration. */
class LocusMiniClusterTest {
  private static final File BASE = new File("target/test-clusters/kit-dfs");
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = LocusMiniCluster.builder(BASE)
        .nodes(4)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .racks("/r1", "/r1", "/r2", "/r2")
        .set("dfs.blocksize", "1048576")
        .start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aDirectoryWithACommaIsRefusedBeforeHadoopSplitsIt() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> LocusMiniCluster.builder(new File("/tmp/runs-none,kat/cluster")));
    assertTrue(refused.getMessage().contains("/tmp/runs-none,kat/cluster contains ','"),
        refused.getMessage());
  }

  @Test
  void everyDataNodeRegistersUnderItsOwnLoopbackAddress() throws Exception {
    DatanodeInfo[] live = cluster.getFileSystem().getDataNodeStats(DatanodeReportType.LIVE);
    Set<String> ips = new HashSet<>();
    Set<String> hosts = new HashSet<>();
    for (DatanodeInfo dn : live) {
      ips.add(dn.getIpAddr());
      hosts.add(dn.getHostName());
    }
    Set<String> expected = Set.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");
    assertEquals(expected, ips);
    assertEquals(expected, hosts);
  }

  @Test
  void nodesReportTheirVolumesWithStorageTypes() {
    List<ClusterNode> nodes = cluster.nodes();
    assertEquals(4, nodes.size());
    for (ClusterNode node : nodes) {
      assertEquals(NodeAddressPlan.hostOf(node.number()), node.host());
      assertEquals(List.of(StorageType.DISK, StorageType.ARCHIVE),
          node.volumes().stream().map(ClusterVolume::type).toList());
      node.volumes().forEach(v -> assertTrue(v.dir().isDirectory(), v + " exists"));
    }
  }

  @Test
  void racksComeFromTheTopologyTable() throws Exception {
    DatanodeInfo[] live = cluster.getFileSystem().getDataNodeStats(DatanodeReportType.LIVE);
    for (DatanodeInfo dn : live) {
      String expected = Set.of("127.0.0.2", "127.0.0.3").contains(dn.getIpAddr()) ? "/r1" : "/r2";
      assertEquals(expected, dn.getNetworkLocation(), dn.getIpAddr());
    }
  }

  @Test
  void replicasOfABlockNameDistinctHosts() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path file = new Path("/replicas/file");
    try (FSDataOutputStream out = fs.create(file, (short) 3)) {
      out.write(new byte[3 * 1024 * 1024]);
    }
    // close() returns once the NameNode counts one replica; the others' reports may still come
    DFSTestUtil.waitReplication(fs, file, (short) 3);
    BlockLocation[] blocks = fs.getFileBlockLocations(file, 0, Long.MAX_VALUE);
    assertEquals(3, blocks.length);
    Set<String> allHosts = new HashSet<>();
    for (BlockLocation block : blocks) {
      Set<String> hosts = new HashSet<>(Arrays.asList(block.getHosts()));
      assertEquals(3, hosts.size(), "3 replicas on 3 distinct hosts: " + hosts);
      assertFalse(hosts.contains("localhost"));
      allHosts.addAll(hosts);
    }
    assertTrue(allHosts.size() >= 3);
  }

  @Test
  void withoutLocusKeysNoLocusClassDecidesAnything() throws Exception {
    assertEquals(BlockPlacementPolicyDefault.class, cluster.getDfsCluster().getNamesystem()
        .getBlockManager().getBlockPlacementPolicy().getClass());
    for (Map.Entry<String, String> e : cluster.getConfiguration()) {
      assertFalse(e.getValue().contains("org.locus"), "client/NameNode key " + e.getKey());
    }
    // Each DataNode carries exactly one kit class: the socket factory that gives its NameNode
    // RPCs its own source address. It decides nothing about data.
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      for (Map.Entry<String, String> e : dn.getConf()) {
        if (e.getValue().contains("org.locus")) {
          assertEquals("hadoop.rpc.socket.factory.class.DatanodeProtocolPB", e.getKey());
          assertEquals(LocalAddressSocketFactory.class.getName(), e.getValue());
        }
      }
    }
  }

  @Test
  void writtenClientConfigurationReachesTheCluster() throws Exception {
    File confDir = new File(BASE, "client-conf");
    cluster.writeClientConfiguration(confDir);
    for (String site : List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml",
        "mapred-site.xml")) {
      assertTrue(new File(confDir, site).isFile(), site + " written");
    }
    Configuration merged = new Configuration();
    merged.addResource(new Path(new File(confDir, "core-site.xml").toURI()));
    merged.addResource(new Path(new File(confDir, "hdfs-site.xml").toURI()));
    assertEquals(cluster.getConfiguration().get("fs.defaultFS"), merged.get("fs.defaultFS"));
    try (FileSystem fs = FileSystem.newInstance(merged)) {
      fs.mkdirs(new Path("/from-written-conf"));
      assertTrue(cluster.getFileSystem().exists(new Path("/from-written-conf")));
    }
  }
}
