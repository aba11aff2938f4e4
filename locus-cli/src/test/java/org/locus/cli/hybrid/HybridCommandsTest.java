package org.locus.cli.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.cli.CliRun;
import org.locus.cli.cluster.FeatureCatalog;
import org.locus.kit.LocusMiniCluster;

/**
 * {@code locus hybrid apply|check} as an operator runs them on a cluster started with the
 * profile's key set, 3 nodes each with an SSD and a DISK volume, YARN on: a job's input and
 * output under the SSD path land only on SSD, other files only on DISK, intermediate data is in
 * the NodeManagers' local directories, and a file written before {@code apply} is reported off
 * the layout. The steps build on each other.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HybridCommandsTest {
  private static final File WORK = new File("target/test-clusters/hybrid-cli").getAbsoluteFile();
  private static LocusMiniCluster cluster;
  private static String conf;

  @BeforeAll
  static void startClusterWithTheHybridFeature() throws Exception {
    cluster = LocusMiniCluster.builder(new File(WORK, "cluster"))
        .nodes(3)
        .volumes(StorageType.SSD, StorageType.DISK)
        .yarn(true)
        .setAll(FeatureCatalog.installed().keysOf("hybrid"))
        .set("dfs.blocksize", "262144")
        .set("dfs.replication", "2")
        .start();
    File confDir = new File(WORK, "conf");
    cluster.writeClientConfiguration(confDir);
    conf = confDir.getPath();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 40_000; i++) {
      text.append("w").append(i % 97).append(' ').append("w").append((i * 7) % 31).append('\n');
    }
    Files.writeString(new File(WORK, "corpus.txt").toPath(), text);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String run(int expectedExit, String... args) {
    CliRun run = CliRun.inProcessExpecting(expectedExit, args);
    return run.out() + run.err();
  }

  @Test
  @Order(1)
  void checkBeforeApplySaysToApply() {
    String out = run(1, "hybrid", "check", "--conf", conf);
    assertTrue(out.contains("/hybrid does not exist") && out.contains("locus hybrid apply"),
        out);
  }

  @Test
  @Order(2)
  void aFileWrittenBeforeApplyIsReportedOffTheLayout() throws Exception {
    String corpus = new File(WORK, "corpus.txt").getPath();
    run(0, "fs", "--conf", conf, "-mkdir", "-p", "/hybrid/early", "/plain");
    run(0, "fs", "--conf", conf, "-put", corpus, "/hybrid/early/");
    String applied = run(0, "hybrid", "apply", "--conf", conf);
    assertTrue(applied.contains("/hybrid: storage policy ALL_SSD (was HOT)"), applied);
    String out = run(1, "hybrid", "check", "--conf", conf, "--no-yarn");
    assertTrue(out.contains("block(s) off the layout"), out);
    run(0, "fs", "--conf", conf, "-rm", "-r", "/hybrid/early");
  }

  @Test
  @Order(3)
  void jobInputAndOutputLiveOnSsdOtherFilesOnDiskIntermediateDataInLocalDirs()
      throws Exception {
    String corpus = new File(WORK, "corpus.txt").getPath();
    run(0, "fs", "--conf", conf, "-mkdir", "-p", "/hybrid/in");
    run(0, "fs", "--conf", conf, "-put", corpus, "/hybrid/in/");
    run(0, "fs", "--conf", conf, "-put", corpus, "/plain/");
    run(0, "job", "wordcount", "--conf", conf, "--input", "/hybrid/in", "--output",
        "/hybrid/out");

    String out = run(0, "hybrid", "check", "--conf", conf, "/plain");
    assertTrue(out.contains("verdict: every block is laid out"), out);
    Matcher hybrid = row("/hybrid").matcher(out);
    assertTrue(hybrid.find(), out);
    assertTrue(Long.parseLong(hybrid.group(2)) > 0, "SSD bytes under /hybrid:\n" + out);
    assertEquals("0", hybrid.group(3), "DISK bytes under /hybrid:\n" + out);
    Matcher plain = row("/plain").matcher(out);
    assertTrue(plain.find(), out);
    assertEquals("0", plain.group(2), "SSD bytes under /plain:\n" + out);
    // the report agrees with HDFS's own block locations
    assertEquals(replicaBytes("/hybrid", StorageType.SSD), Long.parseLong(hybrid.group(2)));
    for (String host : new String[] {"127.0.0.2", "127.0.0.3", "127.0.0.4"}) {
      assertTrue(Pattern.compile("(?m)^  " + Pattern.quote(host) + " +/\\S*localDir").matcher(out)
          .find(), "local dirs of " + host + ":\n" + out);
    }
  }

  @Test
  @Order(4)
  void aBadPolicyIsRefusedNamingTheKeyAndTheChoices() throws Exception {
    File bad = new File(WORK, "conf-bad-policy");
    bad.mkdirs();
    for (File site : new File(conf).listFiles()) {
      Files.copy(site.toPath(), new File(bad, site.getName()).toPath(),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    Configuration core = new Configuration(false);
    File coreSite = new File(bad, "core-site.xml");
    core.addResource(new Path(coreSite.toURI()));
    core.size(); // read the file before it is overwritten
    core.set("locus.hybrid.ssd.policy", "FAST");
    try (java.io.OutputStream o = Files.newOutputStream(coreSite.toPath())) {
      core.writeXml(o);
    }
    String out = run(1, "hybrid", "apply", "--conf", bad.getPath());
    assertTrue(out.contains("locus.hybrid.ssd.policy = 'FAST': expected one of [ALL_SSD,"
        + " ONE_SSD]"), out);
  }

  /** PATH POLICY FILES BLOCKS SSD DISK ... */
  private static Pattern row(String path) {
    return Pattern.compile("(?m)^  " + Pattern.quote(path)
        + " +(\\S+) +\\d+ +\\d+ +(\\d+) +(\\d+) +\\d+ +\\d+");
  }

  private static long replicaBytes(String path, StorageType type) throws Exception {
    long bytes = 0;
    FileSystem fs = cluster.getFileSystem();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(new Path(path), true);
    while (files.hasNext()) {
      for (BlockLocation block : files.next().getBlockLocations()) {
        for (StorageType t : block.getStorageTypes()) {
          if (t == type) {
            bytes += block.getLength();
          }
        }
      }
    }
    return bytes;
  }
}
