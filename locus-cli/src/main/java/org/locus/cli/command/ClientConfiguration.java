package org.locus.cli.command;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.commons.cli.Option;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.HAUtilClient;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * Finds the Hadoop client configuration a command should use and checks that its cluster is
 * there before Hadoop's own clients start retrying against a closed port.
 *
 * <p>The directory comes from {@code --conf DIR} or else {@code HADOOP_CONF_DIR}. DIR may be a
 * Hadoop configuration directory (holding {@code core-site.xml}) or a {@code locus cluster up}
 * directory (holding {@code conf/core-site.xml}).
 */
public final class ClientConfiguration {
  private static final String[] SITE_FILES =
      {"core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml"};

  private ClientConfiguration() {
  }

  /** @return the {@code --conf DIR} option of the commands that talk to a cluster */
  public static Option option() {
    return Option.builder().longOpt("conf").hasArg().argName("DIR")
        .desc("cluster directory ('locus cluster up --dir') or Hadoop configuration directory"
            + " (default HADOOP_CONF_DIR)").build();
  }

  /**
   * @param confOption the value of {@code --conf}, or null
   * @return a configuration with the directory's site files loaded, its NameNode reachable
   */
  public static Configuration load(String confOption) throws LocusException {
    File dir = resolveDirectory(confOption);
    Configuration conf = new JobConf(new YarnConfiguration(new HdfsConfiguration()));
    for (String site : SITE_FILES) {
      File file = new File(dir, site);
      if (file.isFile()) {
        conf.addResource(new Path(file.toURI()));
      }
    }
    requireNameNode(conf, dir);
    return conf;
  }

  private static File resolveDirectory(String confOption) throws LocusException {
    String named = confOption != null ? confOption : System.getenv("HADOOP_CONF_DIR");
    if (named == null || named.isBlank()) {
      throw new LocusException("no cluster configuration: pass --conf DIR (a 'locus cluster up'"
          + " directory or a Hadoop configuration directory) or set HADOOP_CONF_DIR");
    }
    String from = confOption != null ? "--conf" : "HADOOP_CONF_DIR";
    File dir = new File(named);
    if (new File(dir, "conf/core-site.xml").isFile()) {
      return new File(dir, "conf");
    }
    if (new File(dir, "core-site.xml").isFile()) {
      return dir;
    }
    throw new LocusException(from + " " + dir + " holds no core-site.xml (nor conf/core-site.xml);"
        + " is a cluster up there? ('locus cluster status --dir " + dir + "')");
  }

  /**
   * Probes the NameNode of {@code fs.defaultFS} ({@code locus://ENTRY/}: of its entry node,
   * {@code hdfs://ENTRY}). A logical URI ({@code hdfs://ns1}, a
   * nameservice of a federated or HA cluster) is answered by any of the NameNodes its
   * {@code dfs.namenode.rpc-address.NS[.NN]} keys name.
   */
  private static void requireNameNode(Configuration conf, File dir) throws LocusException {
    URI fs = URI.create(conf.get("fs.defaultFS", "file:///"));
    if ("locus".equals(fs.getScheme()) && fs.getAuthority() != null) {
      // the coupled namespace: its entry node's NameNode serves the mount table
      fs = URI.create("hdfs://" + fs.getAuthority());
    }
    if (!"hdfs".equals(fs.getScheme())) {
      return;
    }
    List<InetSocketAddress> nameNodes = new ArrayList<>();
    if (HAUtilClient.isLogicalUri(conf, fs)) {
      nameNodes.addAll(DFSUtilClient.getAddresses(conf, null,
          HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY)
          .getOrDefault(fs.getHost(), Map.of()).values());
    } else {
      nameNodes.add(InetSocketAddress.createUnresolved(fs.getHost(),
          fs.getPort() < 0 ? 8020 : fs.getPort()));
    }
    for (InetSocketAddress nameNode : nameNodes) {
      try (Socket probe = new Socket()) {
        probe.connect(new InetSocketAddress(nameNode.getHostString(), nameNode.getPort()),
            3000);
        return;
      } catch (IOException e) {
        // try the nameservice's next NameNode
      }
    }
    throw new LocusException("no NameNode answers at " + String.join(", ", nameNodes.stream()
        .map(a -> a.getHostString() + ":" + a.getPort()).toList()) + " (fs.defaultFS "
        + fs + " in " + dir + "); is the cluster running? Start one with"
        + " 'locus cluster up --dir DIR'");
  }
}
