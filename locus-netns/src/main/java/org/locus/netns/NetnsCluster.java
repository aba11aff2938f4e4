package org.locus.netns;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.locus.ndcoupling.client.MountTableAdmin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a netns cluster step by step (network, nodes' cgroups and disks, configuration,
 * daemons) and waits until every DataNode, and with YARN every NodeManager, has registered.
 * Every resource goes through the {@link ResourceLedger} first; on any failure the caller runs
 * {@link ClusterTeardown}. Checks that need nothing created are in {@link #check}.
 */
public final class NetnsCluster {
  private static final Logger LOG = LoggerFactory.getLogger(NetnsCluster.class);
  private static final long READY_TIMEOUT_SECONDS = 240;

  private final ClusterLayout layout;
  private final NetnsClusterSpec spec;
  private final ResourceLedger ledger;
  private final NodeCgroup cgroups;
  private final DaemonLauncher launcher;
  private final StockInstallation stock;
  private final SiteConfiguration site;

  public NetnsCluster(ClusterLayout layout, NetnsClusterSpec spec) throws IOException {
    this.layout = layout;
    this.spec = spec;
    this.ledger = new ResourceLedger(layout.ledgerFile());
    this.cgroups = NodeCgroup.forHost(layout, ledger);
    this.launcher = new DaemonLauncher(layout, cgroups, spec.daemonUsers());
    this.stock = new StockInstallation(layout.hadoopHome());
    this.site = new SiteConfiguration(layout, spec, stock);
  }

  /**
   * Refuses what cannot work, before anything is created.
   *
   * @throws IllegalStateException with a one-line reason
   */
  public static void check(ClusterLayout layout, NetnsClusterSpec spec, long availableBytes)
      throws IOException {
    if (!"0".equals(HostCommand.run("id", "-u").trim())) {
      throw new IllegalStateException("--netns needs root (namespaces, loop devices, cgroups);"
          + " run it as root");
    }
    if (!new File("/proc/self/ns/net").exists()
        || HostCommand.attempt("ip", "netns", "list").exitCode() != 0) {
      throw new IllegalStateException("network namespaces are not supported here"
          + " ('ip netns list' fails or /proc/self/ns/net is missing)");
    }
    if (!NamespaceNetwork.rootIsAMountPoint()) {
      throw new IllegalStateException("/ is not a mount point here (a chroot into a plain"
          + " directory?), and 'ip netns exec' remounts /; run from a root that is a mount point,"
          + " e.g. a recursive bind of / (docs/netns.md)");
    }
    try {
      NodeCgroup.forHost(layout, new ResourceLedger(layout.ledgerFile()));
    } catch (IOException e) {
      throw new IllegalStateException("--netns needs cgroups to throttle disks and cap memory: "
          + e.getMessage());
    }
    if (spec.yarn() && spec.containerMemoryMb() < 512) {
      throw new IllegalStateException("--node-memory must leave 512 MiB for containers beside"
          + " the DataNode and NodeManager" + (spec.metadata().coupled() ? " and NameNode" : "")
          + " (" + (spec.nodeDaemonsBytes() >> 20) + " MiB): at least "
          + ((spec.nodeDaemonsBytes() >> 20) + 512) + "m");
    }
    long max = spec.maxNodes(availableBytes);
    if (spec.nodes() > max) {
      throw new IllegalStateException("--nodes " + spec.nodes() + " does not fit: "
          + (availableBytes >> 20) + " MiB available, the master takes "
          + (NetnsClusterSpec.MASTER_MEMORY_BYTES >> 20) + " MiB and each node "
          + (spec.nodeMemoryBytes() >> 20) + " MiB (--node-memory), so at most " + max
          + " nodes");
    }
    if (!new ResourceLedger(layout.ledgerFile()).isEmpty()) {
      throw new IllegalStateException("a netns cluster already has resources in "
          + layout.root() + " (" + layout.ledgerFile() + "); run 'locus cluster down --dir "
          + layout.root() + "' first");
    }
    if (NamespaceNetwork.subnetInUse(layout)) {
      throw new IllegalStateException("the host already routes " + layout.subnet()
          + ".0/24, the subnet of " + layout.root() + " (another netns cluster whose directory"
          + " maps to the same subnet is up?); stop it or choose another --dir");
    }
    if (spec.daemonUsers()) {
      if (spec.metadata().coupled()) {
        throw new IllegalStateException("--daemon-users runs with one NameNode on the master;"
            + " --metadata " + spec.metadata().word() + " still runs its daemons as root");
      }
      if (spec.hasReplicatedVolume()) {
        throw new IllegalStateException("--daemon-users: the REPLICATED volume's FUSE mount"
            + " serves root only; run it without --replicated-volume");
      }
      DaemonUsers.check(layout.root());
      NetnsPrivilegedHelper.check(layout);
    }
    StockInstallation.jars();
  }

  /** Creates and starts everything; returns the state {@code status} shows. */
  public Properties up() throws IOException {
    long start = System.nanoTime();
    stock.install(spec.daemonUsers());
    NamespaceNetwork network = new NamespaceNetwork(layout, ledger);
    network.createBridge();
    List<String> workers = ClusterLayout.workers(spec.nodes());
    List<String> all = new ArrayList<>();
    all.add(ClusterLayout.MASTER);
    all.addAll(workers);
    LinkShaper shaper = new LinkShaper(layout);
    LoopDisk disks = new LoopDisk(ledger, spec.diskModel().emulated()
        ? new HddEmulator(new File(layout.distDir(), "bin/zonedisk"), ledger) : null);
    Map<String, NodeSettings> nodeSettings = new HashMap<>();
    List<NetnsPrivilegedHelper.ZoneDisk> zoneDisks = new ArrayList<>();
    Properties state = new Properties();
    for (String node : all) {
      network.addNode(node);
      state.setProperty(node + ".address", layout.address(node));
      state.setProperty(node + ".namespace", layout.namespace(node));
      cgroups.create(node, node.equals(ClusterLayout.MASTER) ? 0 : spec.nodeMemoryBytes());
      if (!node.equals(ClusterLayout.MASTER) && spec.nodeCpus() > 0) {
        cgroups.limitCpu(node, spec.nodeCpus());
      }
      Files.createDirectories(new File(layout.nodeDir(node), "logs").toPath());
      if (spec.daemonUsers()) {
        DaemonUsers.shared(new File(layout.nodeDir(node), "tmp"));
      }
      if (node.equals(ClusterLayout.MASTER)) {
        if (spec.daemonUsers()) {
          DaemonUsers.own(new File(layout.nodeDir(node), "name"), DaemonUsers.HDFS);
        }
        continue;
      }
      shaper.shape(node, spec.linkBitsPerSecond());
      List<String> devices = new ArrayList<>();
      List<String> diskNames = new ArrayList<>();
      for (int v = 0; v < spec.volumes().size(); v++) {
        diskNames.add("vol" + v);
      }
      if (spec.yarn()) {
        diskNames.add("nmlocal");
      }
      if (spec.hasReplicatedVolume()) {
        diskNames.addAll(ReplicatedVolume.DISKS);
      }
      for (int d = 0; d < diskNames.size(); d++) {
        String disk = diskNames.get(d);
        LoopDisk.Attached attached = disks.create(layout.diskImage(node, disk),
            spec.diskBytes(), layout.mountPoint(node, disk));
        String device = attached.majorMinor();
        boolean volume = d < spec.volumes().size();
        cgroups.throttle(node, device,
            volume ? spec.volumeReadBytesPerSecond(d) : spec.diskReadBytesPerSecond(),
            volume ? spec.volumeWriteBytesPerSecond(d) : spec.diskWriteBytesPerSecond());
        devices.add(disk + "=" + device);
        if (spec.daemonUsers()) {
          DaemonUsers.own(layout.mountPoint(node, disk),
              volume ? DaemonUsers.HDFS : DaemonUsers.YARN);
        }
        if (disk.equals("nmlocal")) {
          NodeSettings settings = NodeSettings.zone(layout, spec, node, attached.device());
          nodeSettings.put(node, settings);
          if (settings != NodeSettings.NONE) {
            zoneDisks.add(new NetnsPrivilegedHelper.ZoneDisk(attached.device(),
                layout.mountPoint(node, disk)));
          }
        }
      }
      if (spec.hasReplicatedVolume()) {
        new ReplicatedVolume(layout, ledger, launcher).mount(node);
      }
      state.setProperty(node + ".disks", String.join(" ", devices));
    }
    if (spec.daemonUsers() && !zoneDisks.isEmpty()) {
      new NetnsPrivilegedHelper(layout, ledger).install(zoneDisks);
    }
    LOG.info("network and disks of {} nodes ready in {} ms", all.size(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));

    SiteConfiguration.write(site.client(), layout.clientConfDir());
    SiteConfiguration.write(site.master(), layout.nodeConfDir(ClusterLayout.MASTER));
    for (String node : workers) {
      SiteConfiguration.write(site.worker(node, nodeSettings.getOrDefault(node, NodeSettings.NONE)),
          layout.nodeConfDir(node));
    }
    List<String> nameNodeNodes = nameNodeNodes();
    if (PartitionReplicas.enabled(spec)) {
      new PartitionHaDaemons(layout, spec, launcher, site).start();
    } else {
      formatNameNodes(nameNodeNodes);
      for (String node : nameNodeNodes) {
        startDaemon(node, DaemonRole.NAMENODE);
      }
    }
    for (String node : nameNodeNodes) {
      if (spec.metadata().coupled()) {
        state.setProperty(node + ".partition", PartitionedNamespace.nameservice(node));
      }
    }
    if (spec.yarn()) {
      startDaemon(ClusterLayout.MASTER, DaemonRole.RESOURCEMANAGER);
    }
    for (String node : workers) {
      startDaemon(node, DaemonRole.DATANODE);
      if (spec.yarn()) {
        startDaemon(node, DaemonRole.NODEMANAGER);
      }
    }
    awaitHdfs();
    if (spec.daemonUsers()) {
      try (FileSystem fs = FileSystem.newInstance(clientConf())) {
        DaemonUsers.initializeFileSystem(fs);
      }
    }
    if (spec.metadata().coupled()) {
      initializeMountTable();
    }
    if (spec.yarn()) {
      startDaemon(ClusterLayout.MASTER, DaemonRole.HISTORYSERVER);
      awaitYarn();
    }
    LOG.info("netns cluster of {} nodes up in {} ms", spec.nodes(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    return state;
  }

  /** @return the environment of every daemon (and so of its tasks) */
  private Map<String, String> daemonEnv(String node) {
    return daemonEnv(layout, layout.nodeConfDir(node));
  }

  /** @return the environment of a daemon that reads the configuration in {@code confDir} */
  static Map<String, String> daemonEnv(ClusterLayout layout, File confDir) {
    return Map.of("JAVA_HOME", System.getProperty("java.home"),
        "HADOOP_CONF_DIR", confDir.getPath(),
        "HADOOP_HOME", layout.hadoopHome().getPath());
  }

  private void startDaemon(String node, DaemonRole role) throws IOException {
    File conf = layout.nodeConfDir(node);
    launcher.start(node, role, DaemonLauncher.javaCommand(role, site.daemonClasspath(conf),
        new File(layout.nodeDir(node), "logs"), List.of()), daemonEnv(node));
  }

  /** @return the nodes that run a NameNode: the master, or every worker when coupled */
  private List<String> nameNodeNodes() {
    return spec.metadata().coupled() ? ClusterLayout.workers(spec.nodes())
        : List.of(ClusterLayout.MASTER);
  }

  /**
   * Formats the NameNode of each of {@code nodes}, all at once (a JVM start each). Coupled
   * NameNodes share one cluster ID: a DataNode refuses a block pool from another cluster.
   */
  private void formatNameNodes(List<String> nodes) throws IOException {
    List<String> args = new ArrayList<>(List.of("-format", "-force", "-nonInteractive"));
    if (spec.metadata().coupled()) {
      args.addAll(List.of("-clusterid", site.partitions().clusterId()));
    }
    Map<String, Process> formats = new java.util.LinkedHashMap<>();
    for (String node : nodes) {
      File conf = layout.nodeConfDir(node);
      List<String> argv = launcher.inNode(node, DaemonRole.NAMENODE, DaemonLauncher.javaCommand(
          DaemonRole.NAMENODE, site.daemonClasspath(conf), new File(layout.nodeDir(node),
              "logs"), args));
      ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true)
          .redirectOutput(formatLog(node));
      builder.environment().putAll(daemonEnv(node));
      formats.put(node, builder.start());
    }
    for (Map.Entry<String, Process> format : formats.entrySet()) {
      try {
        int code = format.getValue().waitFor();
        if (code != 0) {
          throw new IOException("formatting the NameNode on " + format.getKey()
              + " failed (exit " + code + "); see " + formatLog(format.getKey()));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while formatting the NameNode on "
            + format.getKey(), e);
      }
    }
  }

  private File formatLog(String node) {
    return new File(layout.nodeDir(node), "logs/namenode-format.out");
  }

  /** @return the client keys over Hadoop's defaults (for this JVM's own clients) */
  private Configuration clientConf() {
    Configuration conf = new org.apache.hadoop.yarn.conf.YarnConfiguration();
    Configuration keys = site.client();
    for (Map.Entry<String, String> entry : keys) {
      conf.set(entry.getKey(), keys.getRaw(entry.getKey()));
    }
    return conf;
  }

  /**
   * Waits until every NameNode (the master's, or each partition's) counts every DataNode live
   * and has left safe mode: a coupled DataNode is up only when it serves every block pool.
   */
  private void awaitHdfs() throws IOException {
    Configuration conf = clientConf();
    conf.set("ipc.client.connect.max.retries", "1");
    List<URI> nameNodes = spec.metadata().coupled()
        ? site.partitions().nameservices().stream().map(PartitionedNamespace::uri).toList()
        : List.of(FileSystem.getDefaultUri(conf));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_TIMEOUT_SECONDS);
    String last = "";
    for (URI nameNode : nameNodes) {
      while (true) {
        checkDaemonsAlive();
        try (FileSystem fs = FileSystem.newInstance(nameNode, conf)) {
          DistributedFileSystem dfs = (DistributedFileSystem) fs;
          int live = dfs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length;
          boolean safe = dfs.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_GET);
          if (live == spec.nodes() && !safe) {
            break;
          }
          last = nameNode + ": " + live + " of " + spec.nodes() + " DataNodes live"
              + (safe ? ", safe mode" : "");
        } catch (IOException e) {
          last = nameNode + ": " + e.getMessage();
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("HDFS did not come up within " + READY_TIMEOUT_SECONDS + " s ("
              + last + "); see the logs under " + new File(layout.root(), "nodes"));
        }
        pause(500);
      }
    }
  }

  /**
   * Stores the coupled namespace's first mount table in every partition and creates its mount
   * points, before any client (the JobHistory server first) uses {@code locus://}.
   */
  private void initializeMountTable() throws IOException {
    try (MountTableAdmin admin = new MountTableAdmin(clientConf())) {
      LOG.info("mount table {}", admin.initialize());
    }
  }

  private void awaitYarn() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_TIMEOUT_SECONDS);
    String last = "";
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      Configuration conf = clientConf();
      conf.set("yarn.resourcemanager.connect.max-wait.ms", "2000");
      conf.set("yarn.resourcemanager.connect.retry-interval.ms", "500");
      yarn.init(conf);
      yarn.start();
      while (System.nanoTime() < deadline) {
        checkDaemonsAlive();
        try {
          int running = yarn.getNodeReports(NodeState.RUNNING).size();
          boolean history = listening(conf.getSocketAddr("mapreduce.jobhistory.address",
              "0.0.0.0:10020", 10020));
          if (running == spec.nodes() && history) {
            return;
          }
          last = running + " of " + spec.nodes() + " NodeManagers running"
              + (history ? "" : ", JobHistory server not yet listening");
        } catch (Exception e) {
          last = e.getMessage();
        }
        pause(500);
      }
    }
    throw new IOException("YARN did not come up within " + READY_TIMEOUT_SECONDS + " s ("
        + last + "); see the logs under " + new File(layout.root(), "nodes"));
  }

  /**
   * @return whether {@code address} accepts a connection: the JobHistory server opens its port
   *     only after it has made its directories, so a start that fails there is seen here
   */
  private static boolean listening(InetSocketAddress address) {
    try (Socket socket = new Socket()) {
      socket.connect(address, 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private void checkDaemonsAlive() throws IOException {
    List<String> all = new ArrayList<>(List.of(ClusterLayout.MASTER));
    all.addAll(ClusterLayout.workers(spec.nodes()));
    for (String node : all) {
      for (DaemonRole role : DaemonRole.values()) {
        if (layout.daemonPid(node, role.word()).isFile()
            && launcher.running(node, role).isEmpty()) {
          throw new IOException(role.word() + " on " + node + " exited during start-up; see "
              + layout.daemonLog(node, role.word()));
        }
      }
    }
  }

  /** Writes the state file {@code status} reads. */
  public static void writeState(ClusterLayout layout, Properties state) throws IOException {
    File tmp = new File(layout.stateFile().getPath() + ".tmp");
    try (OutputStream out = new FileOutputStream(tmp)) {
      state.store(out, "Locus netns cluster");
    }
    Files.move(tmp.toPath(), layout.stateFile().toPath(),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
