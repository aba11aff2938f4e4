package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.netns.ClusterLayout;

/**
 * Energy-efficient HDFS end to end on stock daemons in namespaces, configured only by
 * {@code --feature energy} (site files) and loading the power manager and the NameNode's
 * node-loss notifier from the dist bundle: the primary/backup layout read back with fsck, the
 * power manager inside each real DataNode process putting its backup volume to standby (read by
 * {@code locus energy report} over JMX), a read served by primaries alone, and a DataNode
 * killed with SIGKILL waking the surviving nodes' backups through the NameNode. The NameNode
 * and DataNodes run as {@code hdfs} ({@code --daemon-users}). Needs root.
 * Costs one three-node HDFS cluster start (no YARN) and a few client commands.
 */
@StartsNetnsClusters
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsEnergyTest {
  private static final File WORK =
      new File("target/test-clusters/netns-energy").getAbsoluteFile();
  /** Below root-only directories: the daemons run as their own users (--daemon-users). */
  private static final File DIR = rootOnlyDirectory("netns-energy");
  private static final File DATA = new File(WORK, "data.txt");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  /** One report row: host, volume, role, state, standby share, spin-ups. */
  private static final Pattern ROW = Pattern.compile(
      "^\\s+(\\S+)\\s+(\\S+)\\s+(primary|backup)\\s+(\\S+)\\s+([\\d.]+) %\\s+(\\d+)\\s",
      Pattern.MULTILINE);

  /** Where fsck found each block's primary replica (DataNode address), from test 1. */
  private static final List<String> PRIMARY_HOSTS = new ArrayList<>();

  private record Disk(String host, String volume, boolean backup, String state, long spinUps) {
  }

  @BeforeAll
  static void startClusterWithTheEnergyFeature() throws Exception {
    NetnsResources.freshWorkDirectory(WORK, DIR);
    StringBuilder text = new StringBuilder();
    for (int i = 0; text.length() < 1_200_000; i++) {
      text.append("line ").append(i).append(" of the energy test's data\n");
    }
    Files.writeString(DATA.toPath(), text, StandardCharsets.UTF_8);
    NetnsResources.up(DIR, "--nodes", "3", "--volumes", "DISK,ARCHIVE", "--feature", "energy",
        "--daemon-users",
        "--conf", "dfs.blocksize=262144", "--conf", "dfs.replication=3",
        // quick to fall asleep, no prediction: a wake can only come from I/O or a request
        "--conf", "locus.energy.standby.timeout.ms=2000",
        "--conf", "locus.energy.min.residency.ms=1000",
        "--conf", "locus.energy.write.guard.quiet.ms=1000",
        "--conf", "locus.energy.predict.wake=false",
        "--conf", "dfs.namenode.stale.datanode.interval=5000",
        "--node-memory", "1g", "--disk-size", "1g");
  }

  @AfterAll
  static void neverLeaveAClusterBehind() {
    NetnsResources.down(DIR);
  }

  @Test
  @Order(0)
  void theNameNodeAndDataNodesRunAsHdfs() throws Exception {
    assertEquals(4, NetnsResources.assertDaemonsRunAsTheirAccounts(LAYOUT),
        "the NameNode and 3 DataNodes");
  }

  @Test
  @Order(1)
  void everyBlockHasOnePrimaryAndTwoBackupReplicas() throws Exception {
    CliRun init = CliRun.inProcess("energy", "init", "--conf", DIR.getPath());
    assertEquals(0, init.exitCode(), init.toString());
    CliRun put = CliRun.inProcess("fs", "--conf", DIR.getPath(), "-put", DATA.getPath(),
        "/data.txt");
    assertEquals(0, put.exitCode(), put.toString());
    // A write pipeline that loses a DataNode on a busy machine closes the block with fewer
    // replicas (HDFS does not replace one of three); the NameNode re-replicates it. The
    // layout is asserted once replication is complete, as HDFS guarantees it then.
    CliRun fsck = awaitFullyReplicated("/data.txt", 120_000);
    assertTrue(fsck.out().contains("is HEALTHY"), fsck.toString());
    Matcher block = Pattern.compile("(?m)^\\d+\\. BP-.*$").matcher(fsck.out());
    int blocks = 0;
    while (block.find()) {
      blocks++;
      String line = block.group();
      assertEquals(1, count(line, ",DISK]"), "one primary: " + line);
      assertEquals(2, count(line, ",ARCHIVE]"), "two backups: " + line);
      Matcher primary = Pattern.compile("\\[([\\d.]+):\\d+,[^,\\]]+,DISK\\]").matcher(line);
      assertTrue(primary.find(), "the primary's address: " + line);
      PRIMARY_HOSTS.add(primary.group(1));
    }
    assertTrue(blocks >= 4, "1.2 MB in 256 KiB blocks: " + fsck.out());
  }

  /** fsck of {@code path}, repeated until it has no under-replicated block or time is up. */
  private static CliRun awaitFullyReplicated(String path, long timeoutMs) throws Exception {
    Pattern under = Pattern.compile("Under-replicated blocks:\\s+(\\d+)");
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      // Hadoop's fsck prints to the process's standard output: run it as its own process.
      CliRun fsck = CliRun.asProcess(new File(System.getProperty("locus.home")), "fsck",
          "--conf", DIR.getPath(), path, "-files", "-blocks", "-locations");
      Matcher m = under.matcher(fsck.out());
      assertTrue(m.find(), "fsck reports under-replicated blocks: " + fsck);
      if (Integer.parseInt(m.group(1)) == 0 || System.currentTimeMillis() > deadline) {
        return fsck;
      }
      Thread.sleep(2_000);
    }
  }

  @Test
  @Order(2)
  void eachDataNodeProcessPutsItsBackupVolumeToStandby() throws Exception {
    List<Disk> disks = awaitReport("every backup in standby",
        all -> all.stream().filter(Disk::backup).allMatch(d -> d.state().equals("STANDBY")));
    assertEquals(6, disks.size(), "three nodes, a primary and a backup volume each: " + disks);
    for (String node : ClusterLayout.workers(3)) {
      String host = LAYOUT.address(node);
      assertEquals(1, disks.stream().filter(d -> d.host().equals(host) && d.backup()).count(),
          host + " reports its backup: " + disks);
      assertEquals(1, disks.stream().filter(d -> d.host().equals(host) && !d.backup()).count(),
          host + " reports its primary: " + disks);
    }
    assertTrue(disks.stream().filter(d -> !d.backup()).noneMatch(d -> d.state()
        .equals("STANDBY")), "primaries are never put to standby: " + disks);
  }

  @Test
  @Order(3)
  void aReadIsServedByPrimariesAndWakesNoBackup() throws Exception {
    List<Disk> before = report();
    CliRun cat = CliRun.asProcess(new File(System.getProperty("locus.home")), "fs", "--conf",
        DIR.getPath(), "-cat", "/data.txt");
    assertEquals(0, cat.exitCode(), cat.err());
    assertEquals(Files.readString(DATA.toPath(), StandardCharsets.UTF_8), cat.out(),
        "the file read back");
    List<Disk> after = report();
    Map<String, Long> spinUps = spinUpsOfBackups(before);
    for (Disk d : after) {
      if (d.backup()) {
        assertEquals(spinUps.get(d.host()), d.spinUps(), "spin-ups of " + d.host()
            + "'s backup across the read: " + before + " -> " + after);
        assertEquals("STANDBY", d.state(), d.host() + "'s backup after the read");
      }
    }
  }

  @Test
  @Order(4)
  void aDataNodeKilledWakesTheBackupsOfItsPrimariesThroughTheNameNode() throws Exception {
    Map<String, Long> before = spinUpsOfBackups(report());
    // The writer is outside the cluster, so which nodes got primaries is the policy's random
    // pick: kill one that holds a primary (three replicas on three nodes: every survivor holds
    // a backup of it).
    String victim = ClusterLayout.workers(3).stream()
        .filter(node -> PRIMARY_HOSTS.contains(LAYOUT.address(node))).findFirst()
        .orElseThrow(() -> new AssertionError("no worker holds a primary: " + PRIMARY_HOSTS));
    String lost = LAYOUT.address(victim);
    CliRun kill = CliRun.inProcess("cluster", "node", "stop", "--dir", DIR.getPath(), victim,
        "--role", "datanode", "--kill");
    assertEquals(0, kill.exitCode(), kill.toString());
    // Nothing reads or writes now: only the NameNode's request can spin the survivors up.
    List<Disk> after = awaitReport("the surviving backups woken", all -> all.stream()
        .filter(d -> d.backup() && !d.host().equals(lost))
        .allMatch(d -> d.spinUps() > before.get(d.host())));
    assertTrue(after.stream().noneMatch(d -> d.host().equals(lost)),
        "the killed DataNode is not reported: " + after);
    for (String node : ClusterLayout.workers(3).stream().filter(n -> !n.equals(victim))
        .toList()) {
      String log = Files.readString(LAYOUT.daemonLog(node, "datanode").toPath(),
          StandardCharsets.UTF_8);
      assertTrue(log.contains("DataNode " + lost), node + "'s DataNode log names the lost"
          + " node as the wake reason:\n" + tail(log));
    }
    CliRun cat = CliRun.asProcess(new File(System.getProperty("locus.home")), "fs", "--conf",
        DIR.getPath(), "-cat", "/data.txt");
    assertEquals(0, cat.exitCode(), cat.err());
    assertEquals(Files.readString(DATA.toPath(), StandardCharsets.UTF_8), cat.out(),
        "the file read back without " + victim);
  }

  private static Map<String, Long> spinUpsOfBackups(List<Disk> disks) {
    Map<String, Long> spinUps = new HashMap<>();
    disks.stream().filter(Disk::backup).forEach(d -> spinUps.put(d.host(), d.spinUps()));
    return spinUps;
  }

  private static List<Disk> awaitReport(String what, Predicate<List<Disk>> done)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    List<Disk> disks = report();
    while (disks.isEmpty() || !done.test(disks)) {
      assertTrue(System.nanoTime() < deadline, "waited 120 s for " + what + ": " + disks);
      Thread.sleep(500);
      disks = report();
    }
    return disks;
  }

  private static List<Disk> report() {
    CliRun run = CliRun.inProcess("energy", "report", "--conf", DIR.getPath());
    List<Disk> disks = new ArrayList<>();
    if (run.exitCode() != 0) {
      return disks;
    }
    Matcher row = ROW.matcher(run.out());
    while (row.find()) {
      disks.add(new Disk(row.group(1), row.group(2), row.group(3).equals("backup"),
          row.group(4), Long.parseLong(row.group(6))));
    }
    return disks;
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }

  private static String tail(String log) {
    return log.substring(Math.max(0, log.length() - 3000));
  }

  private static File rootOnlyDirectory(String name) {
    try {
      return NetnsResources.rootOnlyClusterDirectory(name);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
