package org.locus.cli.lowpower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.cli.Locus;
import org.locus.cli.command.Console;
import org.locus.kit.LocusMiniCluster;
import org.locus.lowpower.amdahl.InstructionSource;

/**
 * {@code locus amdahl --conf DIR --mib 4 --job} on a 2-node embedded cluster with YARN, as
 * docs/lowpower.md runs it: one run, then one assertion per property of its table. Costs about
 * 90 s on an idle 2-core machine (cluster start, one small WordCount).
 */
class AmdahlCommandTest {
  private static final File CONF = new File("target/test-clusters/amdahl-cli/conf");
  private static LocusMiniCluster cluster;
  private static String out;

  @BeforeAll
  static void runAmdahlOnACluster() throws Exception {
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/amdahl-cli/cluster"))
        .nodes(2).yarn(true).set("dfs.replication", "2").start();
    cluster.writeClientConfiguration(CONF);
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    int code = new Locus().run(
        new String[] {"amdahl", "--conf", CONF.getPath(), "--mib", "4", "--job"},
        new Console(new PrintStream(stdout, true, StandardCharsets.UTF_8),
            new PrintStream(stderr, true, StandardCharsets.UTF_8)));
    out = stdout.toString(StandardCharsets.UTF_8);
    System.out.println(out); // the measured table, kept in the surefire report
    assertEquals(0, code, out + stderr.toString(StandardCharsets.UTF_8));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void tableHasARowPerTaskType() {
    for (String task : new String[] {"HDFS write", "HDFS read", "mapper", "reducer"}) {
      assertTrue(out.matches("(?s).*\\n  " + task + " +\\d+\\.\\d .*"), task + " in\n" + out);
    }
  }

  @Test
  void methodOfCountingInstructionsIsPrinted() {
    assertTrue(out.contains(InstructionSource.probe().method()), out);
  }

  @Test
  void writeAtReplicationTwoMovesTwiceTheFileToDisk() {
    // 4 MiB plus one 4-byte CRC per 512 bytes, two replicas: 2 * 4227072 B = 8.5 MB
    assertTrue(out.matches("(?s).*\\n  HDFS write +\\S+ +\\S+ +8\\.5 +8\\.5 .*"), out);
  }
}
