package org.locus.ndcoupling.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.junit.jupiter.api.Test;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/** What the coordinator's client decides before it connects anywhere. */
class BatchTransferClientTest {
  private static final DatanodeID NODE =
      new DatanodeID("10.0.0.7", "dn7", "uuid-7", 9866, 9864, 9865, 9867);

  @Test
  void findsAServiceAtTheDataNodesIpOnTheConfiguredPort() {
    Configuration conf = new Configuration(false);
    assertEquals(new InetSocketAddress("10.0.0.7", NdCouplingConfigKeys
        .BATCH_TRANSFER_PORT_DEFAULT), BatchTransferClient.serviceAddress(NODE, conf));
    conf.setInt(NdCouplingConfigKeys.BATCH_TRANSFER_PORT, 50200);
    assertEquals(new InetSocketAddress("10.0.0.7", 50200),
        BatchTransferClient.serviceAddress(NODE, conf));
  }

  @Test
  void cannotGuessAPortEachDataNodeChoseItself() {
    Configuration conf = new Configuration(false);
    conf.setInt(NdCouplingConfigKeys.BATCH_TRANSFER_PORT, 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BatchTransferClient.serviceAddress(NODE, conf));
    assertTrue(e.getMessage().contains("ListenPort metric of LocusBatchTransfer-dn7-9866"),
        e.getMessage());
  }

  @Test
  void refusesAPushNamingABlockTwice() {
    BlockPush block = new BlockPush(1073741825L, 1001, 65536, "");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new BatchTransferClient().push(new InetSocketAddress("127.0.0.1", 1), "BP-1",
            new InetSocketAddress("127.0.0.1", 2), List.of(block, block), 1000));
    assertTrue(e.getMessage().contains("blk_1073741825 is named twice"), e.getMessage());
  }
}
