package org.locus.ndcoupling.shift;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.BlockReportOptions;
import org.apache.hadoop.hdfs.protocol.ClientDatanodeProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.tools.NNHAServiceTarget;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a partition to one of its NameNodes through Hadoop's own failover controllers: asks
 * that NameNode's ZKFC for a graceful failover, as {@code hdfs haadmin -ns NS -failover} does
 * when automatic failover is on (the ZKFC of the active one gives up the partition's lock, the
 * target reads the edits it missed from the JournalNodes and becomes active). Needs
 * {@code dfs.ha.automatic-failover.enabled} and the ZKFC of the target running.
 *
 * <p>Then it asks every live DataNode for a full block report to the new active NameNode, as
 * {@code hdfs dfsadmin -triggerBlockReport} does: a NameNode that has just become active treats
 * what it knows of each DataNode's replicas as possibly stale and leaves over-replicated blocks
 * alone until that DataNode has reported to it in full (by default every six hours), so without
 * the reports a gear-up's extra stand-in replicas would stay until then.
 */
public final class ZkfcHandOver implements PartitionHandOver {
  private static final Logger LOG = LoggerFactory.getLogger(ZkfcHandOver.class);
  private final Configuration conf;
  private final int timeoutMs;

  public ZkfcHandOver(Configuration conf, int timeoutMs) {
    this.conf = conf;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public void makeActive(String nameservice, String nameNodeId) throws IOException {
    NNHAServiceTarget target = new NNHAServiceTarget(conf, nameservice, nameNodeId);
    if (!target.isAutoFailoverEnabled()) {
      throw new IOException("cannot hand " + nameservice + " to its NameNode " + nameNodeId
          + ": dfs.ha.automatic-failover.enabled is off (gears hand partitions over through"
          + " the ZKFCs)");
    }
    target.getZKFCProxy(conf, timeoutMs).gracefulFailover();
    askForBlockReports(nameservice, target.getAddress());
  }

  private void askForBlockReports(String nameservice, InetSocketAddress nameNode)
      throws IOException {
    BlockReportOptions full = new BlockReportOptions.Factory().setIncremental(false)
        .setNamenodeAddr(nameNode).build();
    try (FileSystem fs = FileSystem.newInstance(URI.create("hdfs://" + nameservice), conf)) {
      for (DatanodeInfo datanode : ((DistributedFileSystem) fs)
          .getDataNodeStats(DatanodeReportType.LIVE)) {
        ClientDatanodeProtocol proxy = null;
        try {
          proxy = DFSUtilClient.createClientDatanodeProtocolProxy(datanode, conf, timeoutMs,
              false);
          proxy.triggerBlockReport(full);
        } catch (IOException e) {
          LOG.warn("DataNode {} was not asked for a block report to {}'s new active NameNode {}:"
              + " {}", datanode.getIpcAddr(false), nameservice, NetUtils.getHostPortString(
                  nameNode), e.getMessage());
        } finally {
          if (proxy != null) {
            RPC.stopProxy(proxy);
          }
        }
      }
    }
  }
}
