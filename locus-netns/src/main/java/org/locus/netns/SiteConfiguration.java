package org.locus.netns;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.locus.kit.SmallClusterTuning;

/**
 * The {@code *-site.xml} files of the cluster, written as an operator would: one directory per
 * node (its own host name keys) and {@code DIR/conf} for host clients. Every daemon is
 * configured by these files alone; the user's keys (features, {@code --conf}) come last.
 */
public final class SiteConfiguration {
  static final int NAMENODE_PORT = 8020;
  /**
   * The daemons' metrics period ({@code *.period} in hadoop-metrics2.properties), in seconds.
   * Hadoop's {@code /jmx} serves a metrics2 source's values cached for one period (stock: 10 s),
   * so a reader needs values at most this old to see what a short workload changed.
   */
  public static final int METRICS_PERIOD_SECONDS = 1;

  /** Task JVM heap within {@link SmallClusterTuning#TASK_CONTAINER_MIB}: a node's own memory. */
  private static final int TASK_HEAP_MIB = 384;

  private final ClusterLayout layout;
  private final NetnsClusterSpec spec;
  private final StockInstallation stock;

  public SiteConfiguration(ClusterLayout layout, NetnsClusterSpec spec,
      StockInstallation stock) {
    this.layout = layout;
    this.spec = spec;
    this.stock = stock;
  }

  /** @return the partitions of a coupled cluster's namespace (one per worker) */
  public PartitionedNamespace partitions() {
    return new PartitionedNamespace(layout, spec.nodes());
  }

  /** @return where the copies of a coupled cluster's partitions live */
  public PartitionReplicas replicas() {
    return new PartitionReplicas(layout, spec.nodes());
  }

  /** @return the classpath of every daemon: conf, the stock installation, the dist bundle */
  public String daemonClasspath(File confDir) {
    return String.join(File.pathSeparator, confDir.getPath(), stock.webappsParent().getPath(),
        stock.libDir() + "/*", spec.distLibDir() + "/*");
  }

  /** @return the keys every daemon and client shares */
  public Configuration common() {
    String master = layout.address(ClusterLayout.MASTER);
    Configuration conf = new Configuration(false);
    if (spec.metadata().coupled()) {
      partitions().addSharedKeys(conf);
      if (spec.metadata().indexed()) {
        new FatBtreeIndexKeys(layout, spec.nodes()).addSharedKeys(conf);
      }
      if (PartitionReplicas.enabled(spec)) {
        replicas().addSharedKeys(conf, partitions().nameservices());
      }
    } else {
      conf.set("fs.defaultFS", "hdfs://" + master + ":" + NAMENODE_PORT);
      conf.set("dfs.namenode.http-address", master + ":9870");
      conf.set("dfs.namenode.name.dir", new File(layout.nodeDir(ClusterLayout.MASTER), "name")
          .toURI().toString());
    }
    conf.set("dfs.replication", Integer.toString(Math.min(3, spec.nodes())));
    conf.set("dfs.permissions.enabled", "false");
    if (spec.daemonUsers()) {
      // The NameNode runs as hdfs; the host's root, who runs the cluster tools, stays an HDFS
      // superuser through its group (for when --conf turns permissions on).
      conf.set("dfs.permissions.superusergroup", DaemonUsers.SUPERUSER_GROUP);
    }
    conf.set("dfs.namenode.datanode.registration.ip-hostname-check", "false");
    // Hadoop 3.5 keeps 1 GiB free beyond a block on every volume by default; these loop-device
    // disks are small, so only the block itself must fit.
    conf.set("dfs.datanode.round-robin-volume-choosing-policy.additional-available-space", "0");
    // Failure detection within seconds and small blocks, as the embedded kit has.
    SmallClusterTuning.hdfs(conf);
    if (spec.yarn()) {
      conf.set("mapreduce.framework.name", "yarn");
      conf.set("yarn.resourcemanager.hostname", master);
      conf.set("mapreduce.jobhistory.address", master + ":10020");
      conf.set("mapreduce.jobhistory.webapp.address", master + ":19888");
      String classpath = String.join(",", layout.clientConfDir().getPath(),
          stock.libDir() + "/*", spec.distLibDir() + "/*");
      conf.set("mapreduce.application.classpath", classpath);
      conf.set("yarn.application.classpath", classpath);
      // A distribution's capacity-scheduler.xml: one queue that may run AMs on half the cluster.
      conf.set("yarn.scheduler.capacity.root.queues", "default");
      conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
      conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
      conf.set("yarn.nodemanager.aux-services", "mapreduce_shuffle");
      conf.set("yarn.nodemanager.aux-services.mapreduce_shuffle.class",
          "org.apache.hadoop.mapred.ShuffleHandler");
      conf.set("yarn.nodemanager.resource.memory-mb", Integer.toString(
          spec.containerMemoryMb()));
      conf.set("yarn.nodemanager.resource.cpu-vcores", "2");
      conf.set("yarn.nodemanager.vmem-check-enabled", "false");
      conf.set("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage",
          "99");
      // A NodeManager that stops heartbeating is lost after 10 s (stock: 10 min), so its
      // containers are rerun elsewhere within a test's patience.
      conf.set("yarn.nm.liveness-monitor.expiry-interval-ms", "10000");
      SmallClusterTuning.yarn(conf);
      SmallClusterTuning.mapReduce(conf, TASK_HEAP_MIB, Math.min(2, spec.nodes()));
    }
    return conf;
  }

  /** @return a worker's keys: its address as its host name, its disks as its directories */
  public Configuration worker(String node) {
    return worker(node, NodeSettings.NONE);
  }

  /**
   * @param nodeSettings keys only this node can have (its devices and mounts)
   * @return a worker's keys: its address as its host name, its disks as its directories
   */
  public Configuration worker(String node, NodeSettings nodeSettings) {
    Configuration conf = common();
    String address = layout.address(node);
    conf.set("hadoop.tmp.dir", new File(layout.nodeDir(node), "tmp").getPath());
    conf.set("dfs.datanode.hostname", address);
    if (spec.metadata().coupled()) {
      partitions().addNameNodeKeys(conf, node);
      if (PartitionReplicas.enabled(spec)) {
        replicas().addPrimaryKeys(conf, node);
      }
    }
    List<String> dataDirs = new ArrayList<>();
    for (int v = 0; v < spec.volumes().size(); v++) {
      dataDirs.add("[" + spec.volumes().get(v) + "]"
          + new File(layout.mountPoint(node, "vol" + v), "data").toURI());
    }
    if (spec.hasReplicatedVolume()) {
      dataDirs.add("[" + spec.replicatedVolume() + "]"
          + new File(layout.mountPoint(node, ReplicatedVolume.MOUNT), "data").toURI());
    }
    conf.set("dfs.datanode.data.dir", String.join(",", dataDirs));
    if (spec.yarn()) {
      conf.set("yarn.nodemanager.hostname", address);
      File local = layout.mountPoint(node, "nmlocal");
      conf.set("yarn.nodemanager.local-dirs", new File(local, "local").getPath());
      conf.set("yarn.nodemanager.log-dirs", new File(local, "logs").getPath());
    }
    spec.keys().forEach(conf::set);
    if (spec.metadata().indexed()) {
      new FatBtreeIndexKeys(layout, spec.nodes()).addNameNodeKeys(conf, node);
    }
    nodeSettings.fillIns().forEach((key, value) -> {
      if (conf.getTrimmed(key, "").isEmpty()) {
        conf.set(key, value);
      }
    });
    nodeSettings.overrides().forEach(conf::set);
    return conf;
  }

  /**
   * @return the keys of the replica NameNode (and its ZKFC) on {@code node}, which serves the
   *     previous node's partition: the node's keys with that partition's identity
   */
  public Configuration replicaWorker(String node) {
    Configuration conf = worker(node);
    replicas().addReplicaKeys(conf, node);
    if (spec.metadata().indexed()) {
      new FatBtreeIndexKeys(layout, spec.nodes()).removeNameNodeKeys(conf);
    }
    return conf;
  }

  /** @return the master's keys */
  public Configuration master() {
    Configuration conf = common();
    conf.set("hadoop.tmp.dir", new File(layout.nodeDir(ClusterLayout.MASTER), "tmp").getPath());
    spec.keys().forEach(conf::set);
    return conf;
  }

  /** @return the host clients' keys */
  public Configuration client() {
    Configuration conf = common();
    spec.keys().forEach(conf::set);
    return conf;
  }

  /**
   * Writes {@code conf} as core/hdfs/yarn/mapred-site.xml (routed by key prefix) plus a console
   * log4j.properties and a hadoop-metrics2.properties with the metrics period into {@code dir}.
   */
  public static void write(Configuration conf, File dir) throws IOException {
    Files.createDirectories(dir.toPath());
    Map<String, Configuration> files = Map.of("core-site.xml", new Configuration(false),
        "hdfs-site.xml", new Configuration(false), "yarn-site.xml", new Configuration(false),
        "mapred-site.xml", new Configuration(false));
    for (Map.Entry<String, String> entry : conf) {
      String key = entry.getKey();
      String file = key.startsWith("dfs.") ? "hdfs-site.xml"
          : key.startsWith("yarn.") ? "yarn-site.xml"
          : key.startsWith("mapreduce.") || key.startsWith("mapred.") ? "mapred-site.xml"
          : "core-site.xml";
      files.get(file).set(key, conf.getRaw(key));
    }
    for (Map.Entry<String, Configuration> file : files.entrySet()) {
      try (OutputStream out = new FileOutputStream(new File(dir, file.getKey()))) {
        file.getValue().writeXml(out);
      }
    }
    Files.write(new File(dir, "log4j.properties").toPath(), String.join("\n",
        "log4j.rootLogger=INFO,console",
        "log4j.appender.console=org.apache.log4j.ConsoleAppender",
        "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n",
        "").getBytes(StandardCharsets.UTF_8));
    // no sinks are configured, so the period only bounds how stale /jmx values are
    Files.write(new File(dir, "hadoop-metrics2.properties").toPath(),
        ("*.period=" + METRICS_PERIOD_SECONDS + "\n").getBytes(StandardCharsets.UTF_8));
  }
}
