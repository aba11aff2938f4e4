package org.locus.ndcoupling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * A partition's home NameNode from the keys a coupled cluster writes: one address without a
 * copy, the first of {@code dfs.ha.namenodes.NS} with one (the partition's own node, also while
 * its copy on the replica node is active).
 */
class PartitionHomesTest {

  @Test
  void aPartitionWithoutACopyIsAtItsOneAddress() {
    Configuration conf = new Configuration(false);
    conf.set("dfs.namenode.rpc-address.ns2", "10.77.1.4:8020");
    assertEquals(new InetSocketAddress("10.77.1.4", 8020),
        PartitionHomes.home(conf, "ns2").orElseThrow());
  }

  @Test
  void anHaPartitionIsAtItsFirstNameNodeNotItsCopy() {
    Configuration conf = new Configuration(false);
    conf.set("dfs.ha.namenodes.ns2", "node2,node3");
    conf.set("dfs.namenode.rpc-address.ns2.node2", "10.77.1.4:8020");
    conf.set("dfs.namenode.rpc-address.ns2.node3", "10.77.1.5:8021");
    assertEquals("10.77.1.4", PartitionHomes.homeHost(conf, "ns2"));
    assertEquals(8020, PartitionHomes.home(conf, "ns2").orElseThrow().getPort());
  }

  @Test
  void aPartitionTheKeysDoNotNameHasNoHome() {
    Configuration conf = new Configuration(false);
    assertTrue(PartitionHomes.home(conf, "ns9").isEmpty());
    conf.set("dfs.ha.namenodes.ns9", "node9,node1");
    assertNull(PartitionHomes.homeHost(conf, "ns9"), "HA ids without their addresses");
  }
}
