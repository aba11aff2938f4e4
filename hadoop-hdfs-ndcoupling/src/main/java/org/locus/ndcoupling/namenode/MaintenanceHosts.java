package org.locus.ndcoupling.namenode;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeAdminProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.blockmanagement.CombinedHostFileManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.util.CombinedHostsFileWriter;

/**
 * Puts the DataNodes a gear switches off into HDFS maintenance, and takes them out again, through
 * Hadoop's own mechanism: the JSON hosts file of {@link CombinedHostFileManager} and a refresh of
 * the DataNode manager. A node in maintenance may be dead without its blocks being re-replicated,
 * as long as each keeps {@code dfs.namenode.maintenance.replication.min} live replicas: a gear
 * shift starts no replication storm.
 *
 * <p>The file lists every host of the gear plan (a listed file admits only listed hosts), the
 * off ones IN_MAINTENANCE with no expiry. It is the file {@code dfs.hosts} names, so an
 * operator's {@code hdfs dfsadmin -refreshNodes} reads the same states.
 */
public final class MaintenanceHosts {
  private final Configuration conf;
  private final DatanodeManager datanodes;
  private final String file;

  /**
   * @throws IllegalStateException when the NameNode's hosts provider is not the combined one
   */
  public MaintenanceHosts(Configuration conf, DatanodeManager datanodes, String file) {
    String provider = conf.get(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, "");
    if (!CombinedHostFileManager.class.getName().equals(provider)) {
      throw new IllegalStateException("gears put off nodes into maintenance, which needs "
          + DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY + " = "
          + CombinedHostFileManager.class.getName() + " (it is '" + provider + "')");
    }
    this.conf = new Configuration(conf);
    this.conf.set(DFSConfigKeys.DFS_HOSTS, file);
    this.datanodes = datanodes;
    this.file = file;
  }

  /** Writes the hosts file with {@code off} in maintenance and the rest normal, and applies it. */
  public void apply(Set<String> allHosts, Set<String> off) throws IOException {
    Set<DatanodeAdminProperties> nodes = new HashSet<>();
    for (String host : allHosts) {
      DatanodeAdminProperties node = new DatanodeAdminProperties();
      node.setHostName(host);
      if (off.contains(host)) {
        node.setAdminState(AdminStates.IN_MAINTENANCE);
        node.setMaintenanceExpireTimeInMS(Long.MAX_VALUE);
      }
      nodes.add(node);
    }
    CombinedHostsFileWriter.writeFile(file, nodes);
    datanodes.refreshNodes(conf);
  }

  /** @return the hosts file's path */
  public String file() {
    return file;
  }
}
