package org.locus.zone.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.locus.jobs.WordCount;
import org.locus.kit.LocusMiniCluster;
import org.locus.zone.yarn.mechanism.FakeCommands;

/**
 * The hook inside a real NodeManager: a one-node mini cluster with YARN runs one small job
 * named like a temp-class job; the NodeManager's calls make the service set the temp area
 * when the job starts and release it when the job is over. zonectl is the fake.
 */
class ZoneHookOnMiniClusterTest {

  private static final String DEV = "/dev/fake-local-dir";

  /**
   * MiniMRYarnCluster resets yarn.nodemanager.aux-services to mapreduce_shuffle, so the hook
   * is installed through the NodeManager's aux-services manifest, which replaces that list.
   * The manifest and its parents must not be writable by group or others (not /tmp).
   */
  private static String writeManifest(Path dir) throws IOException {
    Path manifest = dir.resolve("aux-services.json");
    Files.writeString(manifest, String.join("\n",
        "{\"services\": [",
        " {\"name\": \"mapreduce_shuffle\", \"version\": \"1\", \"configuration\":",
        "   {\"properties\": {\"class.name\": \"org.apache.hadoop.mapred.ShuffleHandler\"}}},",
        " {\"name\": \"" + JobAwareZoneService.SERVICE_NAME + "\", \"version\": \"1\","
            + " \"configuration\":",
        "   {\"properties\": {\"class.name\": \"" + JobAwareZoneService.class.getName()
            + "\"}}}",
        "]}", ""), StandardCharsets.UTF_8);
    return manifest.toUri().toString();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void aJobSetsItsAreaWhenItStartsAndTheIdleNodeReleasesIt() throws Exception {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"),
        "ZoneHookOnMiniClusterTest").toAbsolutePath();
    Files.createDirectories(base);
    Path fakes = Files.createTempDirectory(base, "fakes");
    FakeCommands fake = new FakeCommands(fakes);
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(base.resolve("cluster").toFile())
        .nodes(1).yarn(true);
    // The hook asks the RM for the application's name with the NodeManager's configuration,
    // which in a mini cluster names an ephemeral port (host:0) unless the RM's ports are fixed.
    builder.set(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, "true");
    for (String key : List.of(YarnConfiguration.RM_ADDRESS,
        YarnConfiguration.RM_SCHEDULER_ADDRESS, YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
        YarnConfiguration.RM_ADMIN_ADDRESS, YarnConfiguration.RM_WEBAPP_ADDRESS)) {
      builder.set(key, "127.0.0.1:" + freePort());
    }
    // The build directory may lie under a world-writable directory (a clone in /tmp), which the
    // NodeManager refuses for a manifest: keep it in a private directory of the user's home.
    Path manifestDir = Files.createTempDirectory(Path.of(System.getProperty("user.home")),
        "locus-zone-manifest", PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
    try (LocusMiniCluster cluster = builder
        .set(YarnConfiguration.NM_AUX_SERVICES_MANIFEST_ENABLED, "true")
        .set(YarnConfiguration.NM_AUX_SERVICES_MANIFEST, writeManifest(manifestDir))
        .set(ZoneConfigKeys.ENABLED, "true")
        .set(ZoneConfigKeys.ZONECTL, fake.create("zonectl"))
        .set(ZoneConfigKeys.DEVICE, DEV)
        .set(ZoneConfigKeys.OUTER_SIZE, "16M")
        .set(ZoneConfigKeys.JOB_CLASSES, "^terasort=temp")
        .set(ZoneConfigKeys.DEFAULT_CLASS, "perm")
        .start()) {
      FileSystem fs = cluster.getFileSystem();
      org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/in");
      try (var out = fs.create(new org.apache.hadoop.fs.Path(in, "words.txt"))) {
        out.write("zone zone outer inner\n".getBytes(StandardCharsets.UTF_8));
      }
      Job job = WordCount.create(cluster.getConfiguration(), in,
          new org.apache.hadoop.fs.Path("/out"), 1);
      job.setJobName("terasort-tiny");
      assertTrue(job.waitForCompletion(false), "the job failed");

      List<String> area = List.of("zonectl", "area", DEV, "--class", "temp", "--outer", "16M",
          "-p");
      List<String> release = List.of("zonectl", "release", DEV, "-p");
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (fake.calls().size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertEquals(List.of(area, release), fake.calls(),
          "the NodeManager log in " + new File("target/surefire-reports") + " says why");
    } finally {
      FileUtil.fullyDelete(manifestDir.toFile());
    }
  }
}
