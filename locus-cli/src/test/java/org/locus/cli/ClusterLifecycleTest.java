package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code locus cluster up → fs → fsck → down} as an operator runs it: every step is its own
 * {@code locus} process, the cluster a background process. The steps share one cluster and run
 * in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterLifecycleTest {
  private static final File WORK = new File("target/test-clusters/lifecycle").getAbsoluteFile();
  private static final File HOME = new File(WORK, "home");
  private static final File DIR = new File(WORK, "cluster");
  private static long clusterPid;
  private static List<ProcessHandle> clusterProcesses = List.of();

  @BeforeAll
  static void installAFeatureKeySet() throws Exception {
    FileUtil.fullyDelete(WORK);
    File features = new File(HOME, "conf/features");
    assertTrue(features.mkdirs());
    Files.writeString(new File(features, "probe.xml").toPath(),
        "<configuration><property><name>locus.probe.enabled</name><value>true</value>"
            + "</property></configuration>");
  }

  @AfterAll
  static void neverLeaveAClusterBehind() throws Exception {
    ProcessHandle.of(clusterPid).ifPresent(ProcessHandle::destroyForcibly);
    clusterProcesses.forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  @Order(1)
  void upStartsABackgroundClusterAndReturnsWhenItServes() throws Exception {
    CliRun run = CliRun.asProcess(HOME, "cluster", "up", "--dir", DIR.getPath(), "--nodes", "3",
        "--volumes", "DISK,ARCHIVE", "--feature", "probe",
        "--conf", "dfs.namenode.fs-limits.max-component-length=200");
    assertEquals(0, run.exitCode(), run.toString());
    assertTrue(run.out().contains("features         probe"), run.out());
    clusterPid = Long.parseLong(Files.readString(new File(DIR, "cluster.pid").toPath()).trim());
    clusterProcesses = ProcessHandle.of(clusterPid).orElseThrow().descendants().toList();
    assertTrue(ProcessHandle.of(clusterPid).orElseThrow().isAlive());
    for (String site : List.of("core", "hdfs", "yarn", "mapred")) {
      assertTrue(new File(DIR, "conf/" + site + "-site.xml").isFile(), site + "-site.xml");
    }
    String hdfsSite = Files.readString(new File(DIR, "conf/hdfs-site.xml").toPath());
    String coreSite = Files.readString(new File(DIR, "conf/core-site.xml").toPath());
    assertTrue(coreSite.contains("locus.probe.enabled"), "the feature's keys were applied");
    assertTrue(hdfsSite.contains("dfs.namenode.fs-limits.max-component-length"),
        "--conf keys were applied");
  }

  @Test
  @Order(2)
  void statusListsEachNodeWithItsOwnHostAndTypedVolumes() throws Exception {
    CliRun run = CliRun.asProcess(HOME, "cluster", "status", "--dir", DIR.getPath());
    assertEquals(0, run.exitCode(), run.toString());
    for (String host : List.of("127.0.0.2", "127.0.0.3", "127.0.0.4")) {
      Matcher row = Pattern.compile("(?m)^\\s+\\d+\\s+" + Pattern.quote(host)
          + "\\s+.*\\[DISK\\]\\S+ \\[ARCHIVE\\]\\S+$").matcher(run.out());
      assertTrue(row.find(), "row for " + host + " in\n" + run.out());
    }
  }

  @Test
  @Order(3)
  void aSecondUpOnTheLiveDirectoryIsRefused() throws Exception {
    CliRun run = CliRun.asProcess(HOME, "cluster", "up", "--dir", DIR.getPath());
    assertEquals(1, run.exitCode(), run.toString());
    assertTrue(run.err().contains("a cluster is already running in " + DIR + " (pid "
        + clusterPid + ")"), run.err());
    assertTrue(ProcessHandle.of(clusterPid).orElseThrow().isAlive(), "first cluster untouched");
  }

  @Test
  @Order(4)
  void fsPutThenCatReturnsTheSameBytes() throws Exception {
    File local = new File(WORK, "hello.txt");
    Files.writeString(local.toPath(), "hello from locus\n".repeat(1000));
    CliRun put = CliRun.asProcess(HOME, "fs", "--conf", DIR.getPath(), "-put", local.getPath(),
        "/hello.txt");
    assertEquals(0, put.exitCode(), put.toString());
    CliRun cat = CliRun.asProcess(HOME, "fs", "--conf", DIR.getPath(), "-cat", "/hello.txt");
    assertEquals(0, cat.exitCode(), cat.toString());
    assertEquals(Files.readString(local.toPath()), cat.out());
  }

  @Test
  @Order(5)
  void aPlacedJobOnAClusterWithoutYarnIsRefusedNamingTheResourceManager() throws Exception {
    // --superlocal runs the job under the Locus AM on YARN; this cluster runs no YARN. Hadoop's
    // client alone would retry the absent ResourceManager for 15 minutes, silently.
    CliRun run = CliRun.asProcess(HOME, "job", "wordcount", "--input", "/hello.txt",
        "--output", "/counts", "--superlocal", "--conf", DIR.getPath());
    assertEquals(1, run.exitCode(), run.toString());
    assertTrue(run.err().contains("no ResourceManager answers at")
        && run.err().contains("yarn.resourcemanager.address")
        && run.err().contains("--yarn"), run.err());
  }

  @Test
  @Order(5)
  void fsckShowsReplicasOnDistinctHostsWithStorageTypes() throws Exception {
    CliRun run = CliRun.asProcess(HOME, "fsck", "--conf", DIR.getPath(), "/", "-files",
        "-blocks", "-locations");
    assertEquals(0, run.exitCode(), run.toString());
    assertTrue(run.out().contains("HEALTHY"), run.out());
    Matcher replica = Pattern.compile("DatanodeInfoWithStorage\\[(127\\.0\\.0\\.\\d+):\\d+,"
        + "DS-[^,]+,(DISK|ARCHIVE)\\]").matcher(run.out());
    Set<String> hosts = new HashSet<>();
    int replicas = 0;
    while (replica.find()) {
      hosts.add(replica.group(1));
      replicas++;
    }
    assertEquals(3, replicas, run.out());
    assertEquals(3, hosts.size(), "3 replicas on 3 distinct hosts: " + hosts);
  }

  @Test
  @Order(6)
  void downStopsTheClusterAndLeavesNoProcessBehind() throws Exception {
    CliRun run = CliRun.asProcess(HOME, "cluster", "down", "--dir", DIR.getPath());
    assertEquals(0, run.exitCode(), run.toString());
    assertFalse(ProcessHandle.of(clusterPid).map(ProcessHandle::isAlive).orElse(false),
        "cluster process gone");
    for (ProcessHandle child : clusterProcesses) {
      assertFalse(child.isAlive(), "child process " + child.pid() + " gone");
    }
    long leftovers = ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().orElse("").contains(DIR.getPath()))
        .count();
    assertEquals(0, leftovers, "no process mentions the cluster directory");
  }

  @Test
  @Order(7)
  void afterDownStatusSaysDownAndFsSaysNoClusterRuns() throws Exception {
    CliRun status = CliRun.asProcess(HOME, "cluster", "status", "--dir", DIR.getPath());
    assertEquals(3, status.exitCode(), status.toString());
    assertTrue(status.out().contains(": down"), status.out());
    CliRun fs = CliRun.asProcess(HOME, "fs", "--conf", DIR.getPath(), "-ls", "/");
    assertEquals(1, fs.exitCode(), fs.toString());
    assertTrue(fs.err().contains("no NameNode answers"), fs.err());
  }
}
