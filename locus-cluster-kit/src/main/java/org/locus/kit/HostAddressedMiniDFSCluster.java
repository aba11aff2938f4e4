package org.locus.kit;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.locus.kit.net.LocalAddressSocketFactory;

/**
 * A {@link MiniDFSCluster} whose DataNodes each live on their own loopback address.
 *
 * <p>Stock MiniDFSCluster binds every DataNode to 127.0.0.1. Here DataNode {@code i} (0-based, in
 * start order, including DataNodes added later) binds its data-transfer, HTTP and IPC servers to
 * {@link NodeAddressPlan#hostOf}{@code (i + 1)}, advertises that address as its host name, and
 * sends its NameNode RPCs from it, so the NameNode sees distinct hosts.
 */
public class HostAddressedMiniDFSCluster extends MiniDFSCluster {

  /** Builds a {@link HostAddressedMiniDFSCluster}; otherwise the stock builder. */
  public static class Builder extends MiniDFSCluster.Builder {
    public Builder(Configuration conf, java.io.File baseDir) {
      super(conf, baseDir);
    }

    @Override
    public HostAddressedMiniDFSCluster build() throws IOException {
      return new HostAddressedMiniDFSCluster(this);
    }
  }

  protected HostAddressedMiniDFSCluster(Builder builder) throws IOException {
    super(builder);
  }

  /**
   * Called once per DataNode, just before it starts. The DataNodes started so far are already
   * in {@link #getDataNodes()}, so its size is the new DataNode's 0-based index.
   */
  @Override
  protected void setupDatanodeAddress(Configuration dnConf, boolean setupHostsFile,
      boolean checkDataNodeAddrConfig, int httpPort, int ipcPort) throws IOException {
    super.setupDatanodeAddress(dnConf, setupHostsFile, checkDataNodeAddrConfig, httpPort,
        ipcPort);
    String host = NodeAddressPlan.hostOf(getDataNodes().size() + 1);
    dnConf.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY,
        host + ":" + portOf(dnConf.get(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY)));
    dnConf.set(DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY, host + ":" + httpPort);
    dnConf.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, host + ":" + ipcPort);
    dnConf.set(DFSConfigKeys.DFS_DATANODE_HOST_NAME_KEY, host);
    dnConf.set("hadoop.rpc.socket.factory.class.DatanodeProtocolPB",
        LocalAddressSocketFactory.class.getName());
    dnConf.set(LocalAddressSocketFactory.BIND_ADDRESS_KEY, host);
  }

  private static String portOf(String hostPort) {
    int colon = hostPort == null ? -1 : hostPort.lastIndexOf(':');
    return colon < 0 ? "0" : hostPort.substring(colon + 1);
  }
}
