package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.netns.ClusterLayout;

/**
 * The job-aware zone hook (docs/zone.md) inside real NodeManager processes in namespaces,
 * configured only by {@code --feature zone}: {@code up} gives each node's hook the loop device
 * and mount point of that node's own NodeManager disk; the hook loads from the dist bundle,
 * holds an area online on the mounted local dir when a job's first container arrives, and
 * releases it when the node is idle again — counted by its metrics2 source, read over each
 * NodeManager's {@code /jmx}. The daemons run as {@code hdfs}, {@code yarn} and {@code mapred}
 * ({@code --daemon-users}), so every zone action goes through the cluster's set-user-ID
 * {@code locus-priv} (docs/security.md). Needs root. Costs one two-node YARN cluster and one
 * small job.
 */
@StartsNetnsClusters
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsZoneTest {
  private static final File WORK = new File("target/test-clusters/netns-zone").getAbsoluteFile();
  /** Below root-only directories: the daemons run as their own users (--daemon-users). */
  private static final File DIR = rootOnlyDirectory("netns-zone");
  private static final File DATA = new File(WORK, "data.txt");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final String[] NODES = {"node1", "node2"};

  @BeforeAll
  static void startClusterWithTheZoneFeature() throws Exception {
    NetnsResources.freshWorkDirectory(WORK, DIR);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      text.append("w").append(i % 97).append(" w").append(i % 13).append(" the end\n");
    }
    Files.writeString(DATA.toPath(), text, StandardCharsets.UTF_8);
    // the job's name decides its class: this one writes temporary data (outer area)
    NetnsResources.up(DIR, "--nodes", "2", "--yarn", "--feature", "zone", "--daemon-users",
        "--conf", "locus.zone.job-classes=^locus-wordcount=temp",
        "--node-memory", "2g", "--disk-size", "512m");
  }

  @AfterAll
  static void neverLeaveAClusterBehind() {
    NetnsResources.down(DIR);
  }

  @Test
  @Order(0)
  void theDaemonsRunAsTheirOwnAccountsAndTheHookThroughTheHelper() throws Exception {
    assertEquals(7, NetnsResources.assertDaemonsRunAsTheirAccounts(LAYOUT),
        "NameNode, ResourceManager, JobHistory server, 2 DataNodes, 2 NodeManagers");
    for (String node : NODES) {
      assertEquals("setuid", nodeSite(node).get("locus.zone.helper.mode"), node);
      assertEquals("/var/lib/locus-netns/locus-priv", nodeSite(node).get(
          "locus.zone.helper.path"), node);
    }
  }

  @Test
  @Order(1)
  void eachNodesHookIsGivenItsOwnNodeManagerDiskAndHoldsOnline() throws Exception {
    for (String node : NODES) {
      Configuration site = nodeSite(node);
      String device = site.get("locus.zone.device");
      assertEquals(LAYOUT.diskImage(node, "nmlocal").getCanonicalPath(),
          backingFile(device), node + "'s zone device " + device + " is its nmlocal disk");
      assertEquals(LAYOUT.mountPoint(node, "nmlocal").getPath(),
          site.get("locus.zone.mount-point"), node + "'s mount point");
      assertEquals("256M", site.get("locus.zone.outer-size"), "half of the 512 MiB disk");
      assertEquals(new File(LAYOUT.distDir(), "bin/zonectl").getPath(),
          site.get("locus.zone.zonectl"), "the bundle's zonectl");
      String log = nodeManagerLog(node);
      assertTrue(log.contains("Zone placement on for " + device + " (outer area 256M, online"
          + " hold on " + LAYOUT.mountPoint(node, "nmlocal").getPath() + ")"),
          node + "'s NodeManager log:\n" + tail(log));
      assertEquals(0, zoneMetrics(node).get("ZoneFailures"), node + "'s zone failures");
    }
  }

  @Test
  @Order(2)
  void aJobSetsTheTempAreaWhereItRunsAndTheIdleNodeReleasesIt() throws Exception {
    Map<String, Long> switchesBefore = new HashMap<>();
    for (String node : NODES) {
      switchesBefore.put(node, zoneMetrics(node).get("ZoneSwitches"));
    }
    CliRun put = CliRun.inProcess("fs", "--conf", DIR.getPath(), "-put", DATA.getPath(),
        "/data.txt");
    assertEquals(0, put.exitCode(), put.toString());
    CliRun job = CliRun.inProcess("job", "wordcount", "--conf", DIR.getPath(), "--input",
        "/data.txt", "--output", "/out/wc");
    assertEquals(0, job.exitCode(), job.toString());

    int nodesThatSwitched = 0;
    for (String node : NODES) {
      long switched = zoneMetrics(node).get("ZoneSwitches") - switchesBefore.get(node);
      if (switched == 0) {
        continue;
      }
      nodesThatSwitched++;
      String device = backingDevice(node);
      String log = nodeManagerLog(node);
      assertTrue(Pattern.compile("\\(locus-wordcount\\) starts on an idle node: temp area on "
          + Pattern.quote(device)).matcher(log).find(), node + "'s log:\n" + tail(log));
      // the NodeManager deletes the job's containers, then the idle node lets the area go
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      Map<String, Long> metrics = zoneMetrics(node);
      while (metrics.get("ZoneReleases") < metrics.get("ZoneSwitches")) {
        assertTrue(System.nanoTime() < deadline, node + " never released its area: " + metrics
            + "\n" + tail(nodeManagerLog(node)));
        Thread.sleep(500);
        metrics = zoneMetrics(node);
      }
      assertEquals(0, metrics.get("ZoneFailures"), node + ": " + metrics);
      assertTrue(nodeManagerLog(node).contains("Releasing the temp area on " + device),
          node + "'s log:\n" + tail(nodeManagerLog(node)));
    }
    assertTrue(nodesThatSwitched >= 1, "the job's containers ran somewhere");
    for (String node : NODES) {
      assertFalse(nodeManagerLog(node).contains("Zone placement is off"), node);
    }
  }

  private static String backingDevice(String node) {
    return nodeSite(node).get("locus.zone.device");
  }

  /** The keys the node's daemons read: its own site files. */
  private static Configuration nodeSite(String node) {
    Configuration site = new Configuration(false);
    for (String file : new String[] {"core-site.xml", "yarn-site.xml"}) {
      site.addResource(new Path(new File(LAYOUT.nodeConfDir(node), file).toURI()));
    }
    return site;
  }

  private static String backingFile(String device) throws Exception {
    Process losetup = new ProcessBuilder("losetup", "-nO", "BACK-FILE", device)
        .redirectErrorStream(true).start();
    String out = new String(losetup.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, losetup.waitFor(), "losetup " + device + ": " + out);
    return new File(out.trim()).getCanonicalPath();
  }

  /** The hook's counters, from the NodeManager's own {@code /jmx} servlet. */
  private static Map<String, Long> zoneMetrics(String node) throws IOException {
    URL url = new URL("http://" + LAYOUT.address(node)
        + ":8042/jmx?qry=Hadoop:service=NodeManager,name=LocusZone");
    HttpURLConnection http = (HttpURLConnection) url.openConnection();
    http.setConnectTimeout(10_000);
    http.setReadTimeout(30_000);
    String json;
    try (InputStream in = http.getInputStream()) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      http.disconnect();
    }
    Map<String, Long> counters = new HashMap<>();
    for (String name : new String[] {"ZoneSwitches", "ZoneReleases", "ZoneFailures"}) {
      Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\\d+)").matcher(json);
      assertTrue(m.find(), node + "'s NodeManager publishes " + name + ": " + json);
      counters.put(name, Long.parseLong(m.group(1)));
    }
    return counters;
  }

  private static String nodeManagerLog(String node) throws IOException {
    return Files.readString(LAYOUT.daemonLog(node, "nodemanager").toPath(),
        StandardCharsets.UTF_8);
  }

  private static String tail(String log) {
    return log.length() <= 4000 ? log : log.substring(log.length() - 4000);
  }

  private static File rootOnlyDirectory(String name) {
    try {
      return NetnsResources.rootOnlyClusterDirectory(name);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
