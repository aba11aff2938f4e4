package org.locus.boost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.kit.ClusterNode;
import org.locus.kit.ClusterVolume;
import org.locus.kit.LocusMiniCluster;

/**
 * BoostDFS's REPLICATED storage as the seed builds it (issue 12 item 1): each DataNode's
 * REPLICATED ({@code NVDIMM}) volume is a MorphStore mount over two loop-backed devices with
 * {@code copies=2}, so the one HDFS replica placed there is stored twice on its node. A file
 * under a SUPERLOCAL path (3 copies) then has, per block, one REPLICATED replica whose block and
 * checksum files each have two identical copies inside MorphStore, and one DISK replica on
 * another node; it reads back intact and fsck is healthy. When one device of a node's volume
 * fails (item 5), that node keeps serving its REPLICATED replicas from the other device, and
 * once the device is back MorphStore's repair pass restores both copies. 4 nodes, 8 loop
 * devices; needs root.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MorphStoreVolumeTest {
  private static final Pattern MASTER = Pattern.compile(" master=(\\d+) ");

  private static LocusMiniCluster cluster;
  private static SuperlocalPaths paths;
  /** host → the MorphStore volume under its NVDIMM data directory */
  private static final Map<String, MorphStoreVolume> VOLUMES = new TreeMap<>();

  @BeforeAll
  static void startClusterOnMorphStoreVolumes() throws Exception {
    cluster = BoostTestClusters.fourNodes("morphstore-volume")
        .setAll(BoostTestClusters.featureKeys())
        .start();
    File work = new File("target/test-clusters/morphstore-volume-devices").getAbsoluteFile();
    MiniDFSCluster dfs = cluster.getDfsCluster();
    for (ClusterNode node : cluster.nodes()) {
      File dir = node.volumes().stream().filter(v -> v.type() == StorageType.NVDIMM)
          .map(ClusterVolume::dir).findFirst().orElseThrow();
      MiniDFSCluster.DataNodeProperties stopped = dfs.stopDataNode(xferAddress(node.host()));
      File devices = new File(work, node.host());
      assertTrue(devices.isDirectory() || devices.mkdirs(), devices.toString());
      VOLUMES.put(node.host(), MorphStoreVolume.mount(devices, dir, 96));
      assertTrue(dfs.restartDataNode(stopped, true), "restart " + node.host());
    }
    dfs.waitActive();
    paths = new SuperlocalPaths(cluster.getFileSystem(),
        SuperlocalLayout.from(cluster.getConfiguration()));
  }

  @AfterAll
  static void stopClusterThenVolumes() {
    if (cluster != null) {
      cluster.close();
    }
    VOLUMES.values().forEach(MorphStoreVolume::close);
  }

  @Test
  @Order(1)
  void eachReplicatedReplicaIsStoredTwiceInsideItsNodesMorphStoreVolume() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path dir = BoostTestClusters.taggedDirectory(fs, paths, "/boost/morphstore");
    Path file = new Path(dir, "part-0");
    byte[] bytes = BoostTestClusters.writeRandom(fs, file, 4 * BoostTestClusters.BLOCK, 4);
    // close() returns once one replica is reported; the other DataNode's report may come later
    DFSTestUtil.waitReplication(fs, file, (short) 2);

    List<String> checked = new ArrayList<>();
    for (LocatedBlock block : fs.getClient().getLocatedBlocks(file.toString(), 0)
        .getLocatedBlocks()) {
      DatanodeInfo[] hosts = block.getLocations();
      StorageType[] types = block.getStorageTypes();
      assertEquals(2, hosts.length, "one REPLICATED and one DISK replica: " + block);
      String replicatedHost = null;
      for (int i = 0; i < hosts.length; i++) {
        if (types[i] == StorageType.NVDIMM) {
          replicatedHost = hosts[i].getHostName();
        }
      }
      assertTrue(replicatedHost != null, "no REPLICATED replica: " + block);
      MorphStoreVolume volume = VOLUMES.get(replicatedHost);
      String name = "blk_" + block.getBlock().getBlockId();
      List<File> files = volume.find(name);
      assertEquals(2, files.size(), "block and checksum file of " + name + " on "
          + replicatedHost + ": " + files);
      for (File f : files) {
        String status = awaitTwoCopies(volume, f);
        assertTrue(status.contains("wanted=2 copies=2"), f + ": " + status);
        checked.add(f.getName());
      }
    }
    assertEquals(8, checked.size(), checked.toString());
    for (Map.Entry<String, MorphStoreVolume> e : VOLUMES.entrySet()) {
      String report = e.getValue().verifyReplicas();
      assertTrue(report.contains(" 0 problems"), e.getKey() + ": " + report);
    }
    byte[] read = new byte[bytes.length];
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(0, read);
    }
    assertArrayEquals(bytes, read);
    assertTrue(fsck(dir).contains("is HEALTHY"), fsck(dir));
  }

  @Test
  @Order(2)
  void aNodeServesItsReplicatedReplicaFromTheMirrorWhenOneDeviceFailsAndTheRepairRestoresIt()
      throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    MiniDFSCluster dfs = cluster.getDfsCluster();
    Path dir = BoostTestClusters.taggedDirectory(fs, paths, "/boost/device-loss");
    Path file = new Path(dir, "part-0");
    byte[] bytes = BoostTestClusters.writeRandom(fs, file, BoostTestClusters.BLOCK, 5);
    DFSTestUtil.waitReplication(fs, file, (short) 2);
    LocatedBlock block = fs.getClient().getLocatedBlocks(file.toString(), 0).get(0);
    String replicated = null;
    String plain = null;
    for (int i = 0; i < block.getLocations().length; i++) {
      String host = block.getLocations()[i].getHostName();
      if (block.getStorageTypes()[i] == StorageType.NVDIMM) {
        replicated = host;
      } else {
        plain = host;
      }
    }
    assertTrue(replicated != null && plain != null, "one REPLICATED and one DISK replica: "
        + block);
    MorphStoreVolume volume = VOLUMES.get(replicated);
    File blockFile = null;
    List<File> files = volume.find("blk_" + block.getBlock().getBlockId());
    assertEquals(2, files.size(), "block and checksum file on " + replicated + ": " + files);
    for (File f : files) {
      assertTrue(awaitTwoCopies(volume, f).contains("wanted=2 copies=2"), f.toString());
      if (!f.getName().endsWith(".meta")) {
        blockFile = f;
      }
    }
    assertTrue(blockFile != null, files.toString());
    // the device holding the block file's master fails: the other device's copy stands in
    Matcher master = MASTER.matcher(volume.status(blockFile));
    assertTrue(master.find(), volume.status(blockFile));
    int lost = Integer.parseInt(master.group(1));
    volume.loseDevice(lost);

    // the DISK replica's node is down, so HDFS can only read the REPLICATED replica
    MiniDFSCluster.DataNodeProperties plainNode = dfs.stopDataNode(xferAddress(plain));
    byte[] read = new byte[bytes.length];
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(0, read);
    }
    assertArrayEquals(bytes, read, "read from " + replicated + " with device " + lost + " lost");
    String degraded = volume.volumeStatus();
    assertTrue(degraded.contains(" lost=" + lost + " "), "the volume saw the loss: " + degraded);
    assertTrue(volume.status(blockFile).contains("copies=1 master=" + lost + " devices="
        + (1 - lost)), "served from the mirror: " + volume.status(blockFile));
    DataNode node = dataNode(replicated);
    assertEquals(0, node.getFSDataset().getNumFailedVolumes(),
        replicated + " kept its REPLICATED volume");
    assertTrue(dfs.restartDataNode(plainNode, true), "restart " + plain);
    dfs.waitActive();

    // the device comes back: the node stops, the volume is repaired, the node starts again
    MiniDFSCluster.DataNodeProperties replicatedNode = dfs.stopDataNode(xferAddress(replicated));
    volume.unmount();
    volume.returnDevice(lost);
    volume.remountAndAwaitRepair();
    assertTrue(volume.daemonLog().contains("repair pass over every device (devices behind: "
        + lost + ")"), volume.daemonLog());
    for (File f : files) {
      String status = volume.status(f);
      assertTrue(status.contains("wanted=2 copies=2") && !status.contains("lost="),
          f + " has both copies again: " + status);
    }
    String report = volume.verifyReplicas();
    assertTrue(report.contains(" 0 problems"), report);
    assertTrue(dfs.restartDataNode(replicatedNode, true), "restart " + replicated);
    dfs.waitActive();
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(0, read);
    }
    assertArrayEquals(bytes, read);
    assertTrue(fsck(dir).contains("is HEALTHY"), fsck(dir));
  }

  /** The second copy is made once the DataNode closes the file; waits up to 30 s for it. */
  private static String awaitTwoCopies(MorphStoreVolume volume, File file) throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    String status = volume.status(file);
    while ((status == null || !status.contains("copies=2"))
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
      status = volume.status(file);
    }
    return String.valueOf(status);
  }

  private static DataNode dataNode(String host) {
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      if (dn.getDatanodeId().getHostName().equals(host)
          || dn.getDatanodeId().getIpAddr().equals(host)) {
        return dn;
      }
    }
    throw new AssertionError("no DataNode on " + host);
  }

  private static String xferAddress(String host) {
    for (DataNode dn : cluster.getDfsCluster().getDataNodes()) {
      if (dn.getDatanodeId().getHostName().equals(host)
          || dn.getDatanodeId().getIpAddr().equals(host)) {
        return dn.getDatanodeId().getXferAddr();
      }
    }
    throw new AssertionError("no DataNode on " + host);
  }

  private static String fsck(Path path) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new DFSck(cluster.getConfiguration(), new PrintStream(out, true, StandardCharsets.UTF_8))
        .run(new String[] {path.toString()});
    return out.toString(StandardCharsets.UTF_8);
  }
}
