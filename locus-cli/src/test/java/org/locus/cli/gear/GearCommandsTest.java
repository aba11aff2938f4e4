package org.locus.cli.gear;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.ServerSocket;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.cli.CliRun;
import org.locus.cli.cluster.FeatureCatalog;
import org.locus.kit.LocusMiniCluster;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * {@code locus gear} as an operator of a real cluster runs it: usage errors, and a shift down
 * and up through the operator's switch commands ({@code {host}} substituted, no shell), on an
 * embedded 4-node cluster with the ndcoupling key set. The commands here only leave a mark
 * ({@code touch}): the DataNodes keep running, so the shift down ends when the NameNode still
 * hears them, and the shift up finds them registered. One cluster, about 15 s.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GearCommandsTest {
  private static final File WORK = new File("target/test-clusters/gear-cli").getAbsoluteFile();
  private static LocusMiniCluster cluster;
  private static String conf;

  @BeforeAll
  static void startClusterWithTheGears() throws Exception {
    FileUtil.fullyDelete(WORK);
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    cluster = LocusMiniCluster.builder(new File(WORK, "cluster")).nodes(4)
        .setAll(FeatureCatalog.installed().keysOf("ndcoupling"))
        .set("dfs.replication", "2")
        .set(NdCouplingConfigKeys.GEAR_PLAN, "127.0.0.2,127.0.0.3;127.0.0.4,127.0.0.5")
        .set(NdCouplingConfigKeys.GEAR_RPC_ADDRESS, "127.0.0.1:" + port)
        .set(NdCouplingConfigKeys.GEAR_DIR, new File(WORK, "gears").getPath())
        .set(NdCouplingConfigKeys.GEAR_STOP_COMMAND, "touch " + WORK + "/stopped-{host}")
        .set(NdCouplingConfigKeys.GEAR_START_COMMAND, "touch " + WORK + "/started-{host}")
        .set(NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS, "4")
        .start();
    File confDir = new File(WORK, "conf");
    cluster.writeClientConfiguration(confDir);
    conf = confDir.getPath();
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
  void badCommandLinesAreUsageErrorsNamingWhatIsWrong() {
    assertTrue(run(2, "gear", "set").contains("expected one LEVEL"));
    assertTrue(run(2, "gear", "set", "low").contains("LEVEL must be a gear number"));
    assertTrue(run(2, "gear", "up", "--issue", "sequential", "--transfer", "batch")
        .contains("batch transfer needs batch issuance"));
    assertTrue(run(2, "gear", "up", "--issue", "fast")
        .contains("command issuance 'fast' is not one of sequential, batch"));
    String help = run(0, "gear", "--help");
    assertTrue(help.contains("status") && help.contains("set") && help.contains("up"), help);
  }

  @Test
  @Order(2)
  void statusShowsThePlanAndEveryNode() {
    String status = run(0, "gear", "status", "--conf", conf);
    assertTrue(status.contains("gear 1 of 0..1"), status);
    assertTrue(status.contains("127.0.0.5") && status.contains("on admin=NORMAL live=true"),
        status);
  }

  @Test
  @Order(3)
  void aShiftDownRunsTheStopCommandForEachLeavingHost() {
    String out = run(1, "gear", "set", "0", "--conf", conf);
    assertTrue(new File(WORK, "stopped-127.0.0.4").isFile(), out);
    assertTrue(new File(WORK, "stopped-127.0.0.5").isFile(), out);
    assertTrue(!new File(WORK, "stopped-127.0.0.2").exists(), "gear 0 stays on");
    assertTrue(out.contains("did not stop heartbeating"), out);
    String status = run(0, "gear", "status", "--conf", conf);
    assertTrue(status.contains("gear 0 of 0..1"), status);
    assertTrue(status.contains("off admin=IN_MAINTENANCE"), status);
  }

  @Test
  @Order(4)
  void aShiftUpRunsTheStartCommandAndReportsTheFourSteps() {
    String out = run(0, "gear", "up", "--conf", conf, "--issue", "sequential", "--transfer",
        "sequential");
    assertTrue(new File(WORK, "started-127.0.0.4").isFile(), out);
    assertTrue(out.contains("step 1 metadata") && out.contains("step 4 reflect"), out);
    assertTrue(out.contains("gear 1: done"), out);
    assertTrue(run(0, "gear", "status", "--conf", conf).contains("gear 1 of 0..1"));
  }
}
