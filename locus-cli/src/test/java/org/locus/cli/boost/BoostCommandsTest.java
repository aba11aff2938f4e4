package org.locus.cli.boost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;

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
 * {@code locus boost set-policy}, {@code report} and {@code fsck} as docs/boost.md tells an
 * operator to run them, on a 4-node cluster with BoostDFS's key set and an NVDIMM volume per
 * node; the steps build on each other. One cluster, about 15 s on an idle machine.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BoostCommandsTest {
  private static final File WORK = new File("target/test-clusters/boost-cli").getAbsoluteFile();
  private static final File BIG = new File(WORK, "big.txt");
  private static LocusMiniCluster cluster;
  private static String conf;

  @BeforeAll
  static void startClusterWithTheBoostFeature() throws Exception {
    cluster = LocusMiniCluster.builder(new File(WORK, "cluster"))
        .nodes(4)
        .volumes(StorageType.DISK, StorageType.NVDIMM)
        .setAll(FeatureCatalog.installed().keysOf("boost"))
        .set("dfs.blocksize", "262144")
        .start();
    File confDir = new File(WORK, "conf");
    cluster.writeClientConfiguration(confDir);
    conf = confDir.getPath();
    Files.write(BIG.toPath(), new byte[2 * 262144]);
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
  void setPolicyTagsTheDirectory() {
    run(0, "fs", "--conf", conf, "-mkdir", "/input");
    String out = run(0, "boost", "set-policy", "/input", "--copies", "3", "--conf", conf);
    assertTrue(out.contains("HDFS replication 2"), out);
  }

  @Test
  @Order(2)
  void reportCountsTheMirrorOfTheReplicatedReplica() {
    run(0, "fs", "--conf", conf, "-D", "dfs.replication=2", "-put", BIG.getPath(), "/input/");
    String out = run(0, "boost", "report", "/input", "--conf", conf);
    assertTrue(out.contains("/input: SUPERLOCAL, 3 copies requested"), out);
    assertTrue(out.contains("2 blocks, 2 with exactly one NVDIMM (REPLICATED) replica"), out);
    assertTrue(out.contains("[NVDIMM x2]"), out);
  }

  @Test
  @Order(3)
  void fsckFindsTheInputHealthy() {
    // DFSck exits 0 only when the path is HEALTHY.
    run(0, "fsck", "--conf", conf, "/input");
  }

  @Test
  @Order(4)
  void setPolicyOnAMissingPathNamesIt() {
    String out = run(1, "boost", "set-policy", "/missing", "--conf", conf);
    assertTrue(out.contains("/missing: no such file or directory"), out);
  }
}
