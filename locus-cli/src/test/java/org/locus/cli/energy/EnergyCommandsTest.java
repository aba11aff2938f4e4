package org.locus.cli.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.cli.CliRun;
import org.locus.energy.EnergyConfigKeys;
import org.locus.kit.LocusMiniCluster;

/**
 * {@code locus energy init|wake|report} against a 2-node cluster with the feature on and
 * simulated disks, through its written client configuration as a user would.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EnergyCommandsTest {
  private static final File CONF = new File("target/test-clusters/energy-cli/conf");
  private static LocusMiniCluster cluster;

  @BeforeAll
  static void startClusterWithTheFeature() throws Exception {
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(
        new File("target/test-clusters/energy-cli/cluster"))
        .nodes(2)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .set("dfs.replication", "2")
        .set(EnergyConfigKeys.BACKEND, "simulated")
        .set(EnergyConfigKeys.POLL_INTERVAL_MS, "100")
        .set(EnergyConfigKeys.STANDBY_TIMEOUT_MS, "1000")
        .set(EnergyConfigKeys.MIN_RESIDENCY_MS, "500");
    for (String[] kv : EnergyConfigKeys.STOCK_KEYS) {
      builder.set(kv[0], kv[1]);
    }
    cluster = builder.start();
    cluster.writeClientConfiguration(CONF);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String[] run(String... args) {
    CliRun run = CliRun.inProcessExpecting(0, args);
    return new String[] {run.out(), run.err()};
  }

  private static void await(String what, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
      Thread.sleep(100);
    }
  }

  private static long backupsIn(String state) {
    return new BackupStates(cluster).count(state);
  }

  @Test
  @Order(1)
  void initGivesScratchSpaceTheHotPolicy() throws Exception {
    String out = run("energy", "init", "--conf", CONF.getPath())[0];
    assertTrue(out.contains("/tmp: storage policy HOT"), out);
    assertEquals("HOT", cluster.getFileSystem().getStoragePolicy(new Path("/tmp")).getName());
  }

  @Test
  @Order(2)
  void wakeSpinsUpSleepingBackupsOfEveryNode() throws Exception {
    await("both backups in standby", () -> backupsIn("STANDBY") == 2);
    String out = run("energy", "wake", "--conf", CONF.getPath())[0];
    assertTrue(out.contains("wake requested for all"), out);
    await("both backups woken", () -> backupsIn("STANDBY") == 0);
  }

  @Test
  @Order(3)
  void reportListsEveryDiskAndComparesWithAlwaysOn() throws Exception {
    String out = run("energy", "report", "--conf", CONF.getPath())[0];
    for (String host : new String[] {"127.0.0.2", "127.0.0.3"}) {
      assertTrue(out.contains(host), host + " in\n" + out);
    }
    assertTrue(out.contains("backup") && out.contains("primary"), out);
    assertTrue(out.contains("always-on (ratio") && out.contains("Pt = E x T ratio"), out);
    assertTrue(out.contains("ALPHA") && out.contains("1.0"), out);
  }
}
