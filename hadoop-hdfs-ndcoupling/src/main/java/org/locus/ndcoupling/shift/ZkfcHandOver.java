package org.locus.ndcoupling.shift;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSUtilClient;
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
 * <p>Then it asks every live DataNode, once it has heartbeated to the new active NameNode, for a
 * full block report to it, as {@code hdfs dfsadmin -triggerBlockReport} does: a NameNode that has just become active treats
 * what it knows of each DataNode's replicas as possibly stale and leaves over-replicated blocks
 * alone until that DataNode has reported to it in full (by default every six hours), so without
 * the reports a gear-up's extra stand-in replicas would stay until then.
 */
public final class ZkfcHandOver implements PartitionHandOver {
  private static final Logger LOG = LoggerFactory.getLogger(ZkfcHandOver.class);
  private static final long POLL_MS = 200;
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
    askForBlockReports(nameservice, target.getAddress(), datanode -> true);
  }

  @Override
  public void refreshReturning(String nameservice, String nameNodeId, Collection<String> hosts)
      throws IOException {
    NNHAServiceTarget target = new NNHAServiceTarget(conf, nameservice, nameNodeId);
    askForBlockReports(nameservice, target.getAddress(),
        datanode -> hosts.contains(datanode.getIpAddr())
            || hosts.contains(datanode.getHostName()));
  }

  @Override
  public void rollEdits(String nameservice, String nameNodeId) throws IOException {
    InetSocketAddress nameNode = new NNHAServiceTarget(conf, nameservice, nameNodeId)
        .getAddress();
    try (DFSClient dfs = new DFSClient(nameNode, conf)) {
      dfs.getNamenode().rollEdits();
    }
  }

  /**
   * Asks every live DataNode that {@code which} accepts for a full block report to
   * {@code nameNode} once it has
   * heartbeated to it since it became active: the NameNode counts a report as fresh only from a
   * DataNode that has heartbeated since the failover (a report that overtakes the first
   * heartbeat leaves the DataNode's replicas stale), so each DataNode is asked as soon as its
   * last-contact time moves past the one seen right after the hand-over.
   */
  private void askForBlockReports(String nameservice, InetSocketAddress nameNode,
      Predicate<DatanodeInfo> which) throws IOException {
    BlockReportOptions full = new BlockReportOptions.Factory().setIncremental(false)
        .setNamenodeAddr(nameNode).build();
    // Ask that NameNode itself: a standby answers a DataNode report too, and its view of the
    // heartbeats says nothing of what the active has seen since it became active.
    try (DFSClient dfs = new DFSClient(nameNode, conf)) {
      Map<String, Long> seen = new HashMap<>();
      for (DatanodeInfo datanode : dfs.datanodeReport(DatanodeReportType.LIVE)) {
        if (which.test(datanode)) {
          seen.put(datanode.getDatanodeUuid(), datanode.getLastUpdate());
        }
      }
      long deadline = System.currentTimeMillis() + timeoutMs;
      while (!seen.isEmpty() && System.currentTimeMillis() < deadline) {
        for (DatanodeInfo datanode : dfs.datanodeReport(DatanodeReportType.LIVE)) {
          Long before = seen.get(datanode.getDatanodeUuid());
          if (before != null && datanode.getLastUpdate() != before) {
            seen.remove(datanode.getDatanodeUuid());
            askForBlockReport(nameservice, nameNode, datanode, full);
          }
        }
        if (!seen.isEmpty()) {
          try {
            Thread.sleep(POLL_MS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
          }
        }
      }
      if (!seen.isEmpty()) {
        LOG.warn("{} DataNodes did not heartbeat to {}'s new active NameNode {} within {} ms and"
            + " were not asked for a block report", seen.size(), nameservice,
            NetUtils.getHostPortString(nameNode), timeoutMs);
      }
    }
  }

  private void askForBlockReport(String nameservice, InetSocketAddress nameNode,
      DatanodeInfo datanode, BlockReportOptions full) {
    ClientDatanodeProtocol proxy = null;
    try {
      proxy = DFSUtilClient.createClientDatanodeProtocolProxy(datanode, conf, timeoutMs, false);
      proxy.triggerBlockReport(full);
    } catch (IOException e) {
      LOG.warn("DataNode {} was not asked for a block report to {}'s new active NameNode {}: {}",
          datanode.getIpcAddr(false), nameservice, NetUtils.getHostPortString(nameNode),
          e.getMessage());
    } finally {
      if (proxy != null) {
        RPC.stopProxy(proxy);
      }
    }
  }
}
