package org.locus.kat.ingest;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;

/** The cluster's live DataNodes, as KAT names them: host name to data transfer address. */
public final class LiveDataNodes {
  private LiveDataNodes() {
  }

  /**
   * @return live DataNodes by host name, sorted by name
   * @throws IOException when there is none
   */
  public static Map<String, InetSocketAddress> of(DistributedFileSystem fs) throws IOException {
    Map<String, InetSocketAddress> hosts = new TreeMap<>();
    for (DatanodeInfo dn : fs.getDataNodeStats(DatanodeReportType.LIVE)) {
      hosts.put(dn.getHostName(), new InetSocketAddress(dn.getIpAddr(), dn.getXferPort()));
    }
    if (hosts.isEmpty()) {
      throw new IOException("the cluster has no live DataNode");
    }
    return hosts;
  }
}
