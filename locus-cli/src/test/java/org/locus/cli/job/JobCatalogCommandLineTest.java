package org.locus.cli.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locus.cli.Console;
import org.locus.cli.Locus;
import org.locus.jobs.catalog.JobCatalog;
import org.locus.jobs.catalog.LocusJob;

/** {@code locus job NAME} and {@code locus generate} checks that need no cluster. */
class JobCatalogCommandLineTest {
  private record Run(int code, String out, String err) {
  }

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new Locus().run(args, new Console(new PrintStream(out, true,
        StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    return new Run(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void everyCatalogJobIsACommandWithHelp() {
    String listing = run("job", "--help").out();
    for (LocusJob job : new JobCatalog().all()) {
      assertTrue(listing.contains("  " + job.name() + " "), job.name() + ":\n" + listing);
      Run help = run("job", job.name(), "--help");
      assertEquals(0, help.code(), job.name());
      assertTrue(help.out().startsWith("usage: locus job " + job.name()), help.out());
      for (var option : job.options()) {
        assertTrue(help.out().contains("--" + option.name()), job.name() + ": " + help.out());
      }
    }
  }

  @Test
  void benchRunHelpNamesEverySuite() {
    Run help = run("bench", "run", "--help");
    assertEquals(0, help.code());
    assertTrue(help.out().startsWith("usage: locus bench run --suite NAME --out DIR"),
        help.out());
    assertTrue(help.out().contains("zone-groups"), help.out());
  }

  @Test
  void benchRunOfAnUnknownSuiteIsAUsageError() {
    Run run = run("bench", "run", "--suite", "pumas", "--out", "/tmp/x");
    assertEquals(2, run.code());
    assertTrue(run.err().contains("unknown suite 'pumas'; one of: puma, puma-small"), run.err());
  }

  @Test
  void generateHelpListsEveryKind() {
    Run help = run("generate", "--help");
    assertEquals(0, help.code());
    for (String kind : new String[] {"text", "ratings", "edges", "itemsets", "tera"}) {
      assertTrue(help.out().contains("  " + kind + " "), help.out());
    }
  }

  @Test
  void unknownKindIsAUsageErrorNamingTheKinds() {
    Run run = run("generate", "movies", "--size", "1k", "--output", "/x");
    assertEquals(2, run.code());
    assertTrue(run.err().contains("unknown data kind 'movies'; one of: text, ratings, edges,"
        + " itemsets, tera"), run.err());
  }

  @ParameterizedTest
  @ValueSource(strings = {"12x", "-5", "0"})
  void badSizeIsAUsageError(String size) {
    Run run = run("generate", "text", "--size", size, "--output", "/x");
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains("--size"), run.err());
  }

  @Test
  void jobOptionOutOfRangeIsRefusedBeforeAnyClusterIsContacted() {
    Run run = run("job", "k-means", "--input", "/r", "--output", "/o", "--clusters", "0");
    assertEquals(2, run.code());
    assertTrue(run.err().contains("--clusters must be 1..10000, got 0"), run.err());
  }

  @Test
  void grepWithoutRegexIsAUsageError() {
    Run run = run("job", "grep", "--input", "/in", "--output", "/out");
    assertEquals(2, run.code());
    assertTrue(run.err().contains("--regex REGEX is required"), run.err());
  }

  @Test
  void teragenTakesNoInputOption() {
    Run run = run("job", "teragen", "--input", "/in", "--output", "/out", "--size", "1m");
    assertEquals(2, run.code());
    assertTrue(run.err().contains("--input"), run.err());
  }
}
