package org.apache.hadoop.hdfs.server.blockmanagement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.File;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.TopologyRandomness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.kit.LocusMiniCluster;

/**
 * KAT's placement policy against {@link BlockPlacementPolicyDefault} on the same live cluster
 * state and the same random numbers: identical choices wherever no owner is named, the owner
 * chosen wherever one is.
 */
class KeyAwareBlockPlacementPolicyTest {
  private static LocusMiniCluster cluster;
  private static DatanodeManager datanodes;
  private static BlockPlacementPolicyDefault stock;
  private static KeyAwareBlockPlacementPolicy keyAware;
  private static BlockStoragePolicy hot;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/kat-policy"))
        .nodes(6)
        .racks("/r1", "/r1", "/r2", "/r2", "/r3", "/r3")
        .volumes(StorageType.DISK)
        // The plain topology draws from one seedable random source.
        .set("dfs.use.dfs.network.topology", "false")
        .start();
    FSNamesystem fsn = cluster.getDfsCluster().getNamesystem();
    datanodes = fsn.getBlockManager().getDatanodeManager();
    Configuration conf = cluster.getConfiguration();
    stock = new BlockPlacementPolicyDefault();
    stock.initialize(conf, datanodes.getFSClusterStats(), datanodes.getNetworkTopology(),
        datanodes.getHost2DatanodeMap());
    keyAware = new KeyAwareBlockPlacementPolicy();
    keyAware.initialize(conf, datanodes.getFSClusterStats(), datanodes.getNetworkTopology(),
        datanodes.getHost2DatanodeMap());
    hot = fsn.getBlockManager().getStoragePolicySuite().getDefaultPolicy();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static DatanodeStorageInfo[] choose(BlockPlacementPolicyDefault policy, long seed,
      String src, int replicas, Node writer, List<DatanodeDescriptor> favored) {
    TopologyRandomness.seed(datanodes.getNetworkTopology(), seed);
    return policy.chooseTarget(src, replicas, writer, new HashSet<>(), 128 * 1024, favored, hot,
        EnumSet.noneOf(AddBlockFlag.class));
  }

  @Test
  void withoutAnOwnerInThePathItChoosesExactlyWhatTheDefaultPolicyChooses() {
    List<DatanodeDescriptor> nodes = datanodes.getDatanodeListForReport(
        org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.LIVE);
    Random inputs = new Random(42);
    for (int trial = 0; trial < 300; trial++) {
      long seed = inputs.nextLong();
      int replicas = 1 + inputs.nextInt(4);
      Node writer = inputs.nextBoolean() ? nodes.get(inputs.nextInt(nodes.size())) : null;
      List<DatanodeDescriptor> favored = new ArrayList<>();
      if (inputs.nextInt(3) == 0) {
        favored.add(nodes.get(inputs.nextInt(nodes.size())));
      }
      String src = "/data/trial-" + trial + "/part-0000" + (trial % 10);
      assertArrayEquals(choose(stock, seed, src, replicas, writer, favored),
          choose(keyAware, seed, src, replicas, writer, favored),
          "trial " + trial + ": " + replicas + " replicas, writer " + writer + ", favored "
              + favored);
    }
  }

  @Test
  void anOwnerInThePathIsAlwaysChosen() {
    Random inputs = new Random(7);
    for (DatanodeDescriptor owner : datanodes.getDatanodeListForReport(
        org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.LIVE)) {
      for (int replicas = 1; replicas <= 3; replicas++) {
        DatanodeStorageInfo[] chosen = choose(keyAware, inputs.nextLong(),
            "/kat/words/owner=" + owner.getHostName() + "/bucket-00007", replicas, null,
            List.of());
        assertEquals(replicas, chosen.length);
        boolean hasOwner = false;
        for (DatanodeStorageInfo storage : chosen) {
          hasOwner |= storage.getDatanodeDescriptor() == owner;
        }
        assertEquals(true, hasOwner, owner + " chosen for " + replicas + " replicas");
      }
    }
  }

  @Test
  void explicitFavoredNodesWinOverThePathOwner() {
    List<DatanodeDescriptor> nodes = datanodes.getDatanodeListForReport(
        org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.LIVE);
    DatanodeDescriptor owner = nodes.get(0);
    DatanodeDescriptor favored = nodes.get(5);
    DatanodeStorageInfo[] chosen = choose(keyAware, 1L,
        "/kat/words/owner=" + owner.getHostName() + "/bucket-00001", 1, null, List.of(favored));
    assertSame(favored, chosen[0].getDatanodeDescriptor());
  }
}
