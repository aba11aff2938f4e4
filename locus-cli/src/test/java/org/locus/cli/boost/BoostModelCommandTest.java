package org.locus.cli.boost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.locus.boost.model.RemoteTaskFraction;
import org.locus.cli.Locus;
import org.locus.cli.command.Console;

/** The model commands as docs/boost.md shows them; no cluster, about 3 s. */
class BoostModelCommandTest {

  private record Run(int code, String out, String err) {
  }

  private static Run locus(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new Locus().run(args, new Console(new PrintStream(out, true,
        StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    return new Run(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  private static double field(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\": ([0-9.eE-]+)").matcher(json);
    assertTrue(m.find(), key + " in " + json);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void jsonHasTheFiveModelKeys() {
    Run run = locus("boost", "model", "--k", "100", "--r", "3", "--json");
    assertEquals(0, run.code(), run.err());
    assertEquals(RemoteTaskFraction.closedForm(100, 3), field(run.out(), "rho_model"), 1e-6);
    double rho = field(run.out(), "rho_simulated");
    assertTrue(rho >= 0 && rho <= 1, run.out());
    assertTrue(field(run.out(), "time_hdfs") >= 1, run.out());
    assertTrue(field(run.out(), "time_boost") > 0, run.out());
    assertEquals(1.0 / 30, field(run.out(), "capacity_overhead"), 1e-6);
    assertEquals(1, run.out().strip().lines().count());
  }

  @Test
  void sameSeedPrintsTheSameEstimate() {
    String[] args = {"boost", "model", "--k", "50", "--r", "2", "--nodes", "40", "--slots", "2",
        "--seed", "5", "--json"};
    assertEquals(locus(args).out(), locus(args).out());
  }

  @Test
  void textOutputNamesBothEstimates() {
    Run run = locus("boost", "model", "--k", "32", "--r", "2", "--nodes", "20");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().contains("closed form (Eq. 4.2)"), run.out());
    assertTrue(run.out().contains("simulated (greedy)"), run.out());
  }

  @Test
  void fourNodesWithFourSlotsRunMostTasksSuperlocal() {
    Run run = locus("boost", "model", "--k", "100", "--r", "3", "--nodes", "4", "--slots", "4",
        "--json");
    assertEquals(0, run.code(), run.err());
    // 1 - rho_1 = 0.960; the greedy scheduler's tail may cost a little of it.
    assertTrue(field(run.out(), "superlocal_share") > 0.9, run.out());
  }

  @Test
  void replicatedCopiesOnTheLeastLoadedNodesRaiseTheSuperlocalShare() {
    String[] random = {"boost", "model", "--k", "2", "--r", "3", "--nodes", "5", "--json"};
    String[] spread = {"boost", "model", "--k", "2", "--r", "3", "--nodes", "5",
        "--replicated-choices", "2", "--json"};
    Run stock = locus(random);
    Run balanced = locus(spread);
    assertEquals(0, balanced.code(), balanced.err());
    assertEquals(2, field(balanced.out(), "replicated_choices"), 0);
    assertTrue(field(balanced.out(), "superlocal_share")
        > field(stock.out(), "superlocal_share") + 0.05, stock.out() + balanced.out());
    assertTrue(field(balanced.out(), "time_boost") < field(stock.out(), "time_boost"),
        stock.out() + balanced.out());
  }

  @Test
  void oneCopyAtTheSameCapacityIsAUsageError() {
    Run run = locus("boost", "model", "--k", "50", "--r", "1");
    assertEquals(2, run.code());
    assertTrue(run.err().contains("--compare availability"), run.err());
  }

  @Test
  void moreCopiesThanNodesIsAUsageError() {
    Run run = locus("boost", "model", "--k", "50", "--r", "5", "--nodes", "4");
    assertEquals(2, run.code());
    assertTrue(run.err().contains("--r must be 1..4"), run.err());
  }

  @Test
  void tablePrintsOneRowPerGridPoint() {
    Run run = locus("boost", "model-table", "--k", "32,50", "--r", "1,2", "--nodes", "10");
    assertEquals(0, run.code(), run.err());
    assertEquals(4, run.out().lines().filter(l -> l.matches("\\| \\d+ \\|.*")).count(),
        run.out());
  }
}
