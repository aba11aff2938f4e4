package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.tools.NNHAServiceTarget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the daemons that keep a copy of every partition's metadata ({@link PartitionReplicas}
 * decides where) and hands a partition back to its own node after a failover. Only Hadoop's and
 * ZooKeeper's own tools and daemons do the work, in the order an operator follows for an HA
 * nameservice:
 *
 * <ol>
 *   <li>ZooKeeper servers and JournalNodes on the quorum nodes, awaited until the ensemble
 *       serves and every JournalNode listens;</li>
 *   <li>{@code namenode -format -clusterid CID} on every partition's own node (this formats the
 *       partition's journal too), then those NameNodes (HA NameNodes start as standby);</li>
 *   <li>{@code namenode -bootstrapStandby} on every replica node (it copies the image from the
 *       running primary), then the replica NameNodes;</li>
 *   <li>{@code zkfc -formatZK} per partition, the primaries' ZKFCs, which win their partitions'
 *       elections, and once every primary is active the replicas' ZKFCs.</li>
 * </ol>
 *
 * Each step runs on every node at once. A failure names the node and the log to read.
 */
public final class PartitionHaDaemons {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionHaDaemons.class);
  private static final long STEP_TIMEOUT_SECONDS = 180;
  private static final Pattern STATE = Pattern.compile("\"State\"\\s*:\\s*\"([a-z]+)\"");

  private final ClusterLayout layout;
  private final NetnsClusterSpec spec;
  private final DaemonLauncher launcher;
  private final SiteConfiguration site;
  private final PartitionReplicas replicas;

  public PartitionHaDaemons(ClusterLayout layout, NetnsClusterSpec spec, DaemonLauncher launcher,
      SiteConfiguration site) {
    this.layout = layout;
    this.spec = spec;
    this.launcher = launcher;
    this.site = site;
    this.replicas = site.replicas();
  }

  /** Writes the replica NameNodes' and ZooKeeper servers' files, then starts every daemon. */
  public void start() throws IOException {
    List<String> workers = ClusterLayout.workers(spec.nodes());
    for (String node : workers) {
      SiteConfiguration.write(site.replicaWorker(node), replicas.replicaConfDir(node));
    }
    for (String node : PartitionReplicas.quorumNodes()) {
      clearEarlierCluster(replicas.journalDir(node));
      clearEarlierCluster(replicas.zookeeperDir(node));
      Files.createDirectories(replicas.zookeeperDir(node).toPath());
      Files.writeString(new File(replicas.zookeeperDir(node), "myid").toPath(),
          ClusterLayout.index(node) + "\n");
      Files.writeString(replicas.zookeeperConfig(node).toPath(),
          replicas.zookeeperConfigText(node));
      start(node, DaemonRole.ZOOKEEPER, List.of(replicas.zookeeperConfig(node).getPath()));
      start(node, DaemonRole.JOURNALNODE, List.of());
    }
    awaitQuorum();

    Map<String, List<String>> formats = new LinkedHashMap<>();
    for (String node : workers) {
      formats.put(node, List.of("-format", "-force", "-nonInteractive", "-clusterid",
          site.partitions().clusterId()));
    }
    runEverywhere(DaemonRole.NAMENODE, formats, "namenode-format");
    for (String node : workers) {
      start(node, DaemonRole.NAMENODE, List.of());
    }
    // bootstrapStandby asks the primary over RPC, which answers only once it has started
    for (String ns : site.partitions().nameservices()) {
      awaitState(ns, PartitionedNamespace.nodeOf(ns), HAServiceState.STANDBY);
    }
    Map<String, List<String>> bootstraps = new LinkedHashMap<>();
    for (String node : workers) {
      bootstraps.put(node, List.of("-bootstrapStandby", "-force", "-nonInteractive"));
    }
    runEverywhere(DaemonRole.REPLICA_NAMENODE, bootstraps, "replica-namenode-bootstrap");
    for (String node : workers) {
      start(node, DaemonRole.REPLICA_NAMENODE, List.of());
    }
    Map<String, List<String>> formatZk = new LinkedHashMap<>();
    for (String node : workers) {
      formatZk.put(node, List.of("-formatZK", "-force", "-nonInteractive"));
    }
    runEverywhere(DaemonRole.ZKFC, formatZk, "zkfc-format");
    for (String node : workers) {
      start(node, DaemonRole.ZKFC, List.of());
    }
    for (String ns : site.partitions().nameservices()) {
      awaitState(ns, PartitionedNamespace.nodeOf(ns), HAServiceState.ACTIVE);
    }
    for (String node : workers) {
      start(node, DaemonRole.REPLICA_ZKFC, List.of());
    }
  }

  /**
   * Empties a JournalNode's or ZooKeeper server's data directory that an earlier cluster in the
   * same directory left. The NameNodes are formatted and ZooKeeper's election state is formatted
   * below, so that data belongs to namespaces that no longer exist, and it is not harmless: a
   * JournalNode's syncer ({@code dfs.journalnode.enable.sync}) copies an old finalized edits
   * segment from its peers into the freshly formatted journal, the new NameNode replays it and
   * then waits in safe mode for blocks no DataNode has (seen on {@code up} over a directory that
   * had been {@code down}).
   */
  static void clearEarlierCluster(File dataDir) throws IOException {
    if (dataDir.exists()) {
      LOG.info("clearing {}, left by an earlier cluster in this directory", dataDir);
      if (!FileUtil.fullyDelete(dataDir)) {
        throw new IOException("cannot remove " + dataDir + ", left by an earlier cluster in this"
            + " directory; remove it by hand");
      }
    }
  }

  /** @return the configuration directory a role on {@code node} reads */
  private File confDir(String node, DaemonRole role) {
    return role == DaemonRole.REPLICA_NAMENODE || role == DaemonRole.REPLICA_ZKFC
        ? replicas.replicaConfDir(node) : layout.nodeConfDir(node);
  }

  private void start(String node, DaemonRole role, List<String> args) throws IOException {
    File conf = confDir(node, role);
    launcher.start(node, role, DaemonLauncher.javaCommand(role, site.daemonClasspath(conf),
        new File(layout.nodeDir(node), "logs"), args), NetnsCluster.daemonEnv(layout, conf));
  }

  /** Runs one of {@code role}'s tools on each node at once and requires each to succeed. */
  private void runEverywhere(DaemonRole role, Map<String, List<String>> argsByNode, String step)
      throws IOException {
    Map<String, Process> runs = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> entry : argsByNode.entrySet()) {
      String node = entry.getKey();
      File conf = confDir(node, role);
      List<String> argv = launcher.inNode(node, role, DaemonLauncher.javaCommand(role,
          site.daemonClasspath(conf), new File(layout.nodeDir(node), "logs"), entry.getValue()));
      ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true)
          .redirectOutput(stepLog(node, step));
      builder.environment().putAll(NetnsCluster.daemonEnv(layout, conf));
      runs.put(node, builder.start());
    }
    for (Map.Entry<String, Process> run : runs.entrySet()) {
      try {
        if (!run.getValue().waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          run.getValue().destroyForcibly();
          throw new IOException(step + " on " + run.getKey() + " did not finish within "
              + STEP_TIMEOUT_SECONDS + " s; see " + stepLog(run.getKey(), step));
        }
        int code = run.getValue().exitValue();
        if (code != 0) {
          throw new IOException(step + " on " + run.getKey() + " failed (exit " + code
              + "); see " + stepLog(run.getKey(), step));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted during " + step + " on " + run.getKey(), e);
      }
    }
  }

  private File stepLog(String node, String step) {
    return new File(layout.nodeDir(node), "logs/" + step + ".out");
  }

  /** Waits until every JournalNode listens and the ZooKeeper ensemble has a leader. */
  private void awaitQuorum() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_TIMEOUT_SECONDS);
    for (String node : PartitionReplicas.quorumNodes()) {
      String address = layout.address(node);
      while (!listens(address, PartitionReplicas.JOURNAL_RPC_PORT)
          || !zookeeperServes(address)) {
        checkAlive(node, DaemonRole.ZOOKEEPER);
        checkAlive(node, DaemonRole.JOURNALNODE);
        if (System.nanoTime() > deadline) {
          throw new IOException("the metadata quorum on " + node + " did not come up within "
              + STEP_TIMEOUT_SECONDS + " s (JournalNode " + address + ":"
              + PartitionReplicas.JOURNAL_RPC_PORT + ", ZooKeeper " + address + ":"
              + PartitionReplicas.ZOOKEEPER_CLIENT_PORT + "); see "
              + layout.daemonLog(node, DaemonRole.ZOOKEEPER.word()) + " and "
              + layout.daemonLog(node, DaemonRole.JOURNALNODE.word()));
        }
        pause(300);
      }
    }
  }

  private void checkAlive(String node, DaemonRole role) throws IOException {
    if (launcher.running(node, role).isEmpty()) {
      throw new IOException(role.word() + " on " + node + " exited during start-up; see "
          + layout.daemonLog(node, role.word()));
    }
  }

  /**
   * Waits until the NameNode of {@code nameservice} on {@code node} has started and is in
   * {@code state}, as its HA service (RPC) reports it.
   *
   * @throws IOException naming the NameNode, the state it was in and its log
   */
  private void awaitState(String nameservice, String node, HAServiceState state)
      throws IOException {
    Configuration conf = new Configuration();
    Configuration keys = site.client();
    for (Map.Entry<String, String> entry : keys) {
      conf.set(entry.getKey(), keys.getRaw(entry.getKey()));
    }
    conf.setInt("ipc.client.connect.max.retries", 0);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_TIMEOUT_SECONDS);
    String seen = "down";
    DaemonRole role = node.equals(PartitionedNamespace.nodeOf(nameservice))
        ? DaemonRole.NAMENODE : DaemonRole.REPLICA_NAMENODE;
    while (System.nanoTime() < deadline) {
      try {
        HAServiceState now = new NNHAServiceTarget(conf, nameservice, node).getProxy(conf, 2000)
            .getServiceStatus().getState();
        if (now == state) {
          return;
        }
        seen = now.toString();
      } catch (IOException e) {
        seen = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst()
            .orElse("");
        if (launcher.running(node, role).isEmpty()) {
          throw new IOException(role.word() + " on " + node + " exited during start-up; see "
              + layout.daemonLog(node, role.word()));
        }
      }
      pause(300);
    }
    throw new IOException("the NameNode of " + nameservice + " on " + node + " is not "
        + state + " after " + STEP_TIMEOUT_SECONDS + " s (" + seen + "); see "
        + layout.daemonLog(node, role.word()) + " and its ZKFC's log");
  }

  /**
   * Hands {@code nameservice} back to its own node once that node's NameNode is a healthy
   * standby: a graceful failover through the ZKFCs (what {@code hdfs haadmin -failover} does
   * when automatic failover is on), in which the returning NameNode reads the edits it missed
   * from the JournalNodes before it becomes active.
   *
   * @param clientConf the cluster's client keys
   * @return false if the partition was already served by its own node
   */
  public static boolean handBack(ClusterLayout layout, int nodes, String nameservice,
      Configuration clientConf, long timeoutSeconds) throws IOException {
    PartitionReplicas replicas = new PartitionReplicas(layout, nodes);
    String primary = PartitionedNamespace.nodeOf(nameservice);
    if (nameNodeState(replicas.httpAddress(nameservice, primary)).equals("active")) {
      return false;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    String last = "";
    while (System.nanoTime() < deadline) {
      String state = nameNodeState(replicas.httpAddress(nameservice, primary));
      if (state.equals("active")) {
        return true;
      }
      if (state.equals("standby")) {
        try {
          NNHAServiceTarget target = new NNHAServiceTarget(clientConf, nameservice, primary);
          target.getZKFCProxy(clientConf, 15_000).gracefulFailover();
          LOG.info("{} handed back to {}", nameservice, primary);
          return true;
        } catch (IOException e) {
          last = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst()
              .orElse("");
        }
      } else {
        last = "its NameNode is " + state;
      }
      pause(1000);
    }
    throw new IOException(nameservice + " was not handed back to " + primary + " within "
        + timeoutSeconds + " s: " + last);
  }

  /**
   * Waits until the copy of {@code nameservice} on {@code node} has loaded its image and edits
   * and serves as a standby (or has become active): a returning node is back only when the copy
   * it holds for another partition could take that partition over again.
   *
   * @return the state reached, {@code standby} or {@code active}
   * @throws IOException when the copy is not ready within {@code timeoutSeconds}
   */
  public static String awaitCopy(ClusterLayout layout, int nodes, String nameservice,
      String node, long timeoutSeconds) throws IOException {
    String address = new PartitionReplicas(layout, nodes).httpAddress(nameservice, node);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    String state = nameNodeState(address);
    while (!state.equals("standby") && !state.equals("active")) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the copy of " + nameservice + " on " + node + " is " + state
            + " after " + timeoutSeconds + " s, not standby; see "
            + layout.daemonLog(node, DaemonRole.REPLICA_NAMENODE.word()));
      }
      pause(500);
      state = nameNodeState(address);
    }
    return state;
  }

  /**
   * @param httpAddress host:port of a NameNode's HTTP server
   * @return {@code active}, {@code standby} (or another HA state) as the NameNode's {@code /jmx}
   *     reports it, or {@code down} when it does not answer within a second
   */
  public static String nameNodeState(String httpAddress) {
    URI uri = URI.create("http://" + httpAddress
        + "/jmx?qry=Hadoop:service=NameNode,name=NameNodeStatus");
    try {
      URLConnection connection = uri.toURL().openConnection();
      connection.setConnectTimeout(1000);
      connection.setReadTimeout(2000);
      try (InputStream in = connection.getInputStream()) {
        Matcher state = STATE.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        return state.find() ? state.group(1) : "starting";
      }
    } catch (IOException e) {
      return "down";
    }
  }

  private static boolean listens(String address, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** @return whether the ZooKeeper server at {@code address} is part of a serving ensemble */
  private static boolean zookeeperServes(String address) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, PartitionReplicas.ZOOKEEPER_CLIENT_PORT),
          1000);
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      out.write("srvr".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String reply = new String(socket.getInputStream().readAllBytes(),
          StandardCharsets.US_ASCII);
      return reply.contains("Mode: leader") || reply.contains("Mode: follower");
    } catch (IOException e) {
      return false;
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
