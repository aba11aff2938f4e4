package org.locus.zone.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapreduce.Job;
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

  @Test
  void aJobSetsItsAreaWhenItStartsAndTheIdleNodeReleasesIt() throws Exception {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"),
        "ZoneHookOnMiniClusterTest").toAbsolutePath();
    Files.createDirectories(base);
    Path fakes = Files.createTempDirectory(base, "fakes");
    FakeCommands fake = new FakeCommands(fakes);
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(base.resolve("cluster").toFile())
        .nodes(1).yarn(true);
    EmbeddedHookInstall install = EmbeddedHookInstall.create();
    install.keys().forEach(builder::set);
    try (LocusMiniCluster cluster = builder
        .set(ZoneConfigKeys.ENABLED, "true")
        .set(ZoneConfigKeys.HELPER_MODE, "direct")
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
      FileUtil.fullyDelete(install.directory().toFile());
    }
  }
}
