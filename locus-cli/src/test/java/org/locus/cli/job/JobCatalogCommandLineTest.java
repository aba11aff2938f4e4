package org.locus.cli.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locus.cli.CliRun;
import org.locus.jobs.catalog.JobCatalog;
import org.locus.jobs.catalog.LocusJob;

/** {@code locus job NAME} and {@code locus generate} checks that need no cluster. */
class JobCatalogCommandLineTest {
  private static CliRun run(String... args) {
    return CliRun.inProcess(args);
  }

  @Test
  void everyCatalogJobIsACommandWithHelp() {
    String listing = run("job", "--help").out();
    for (LocusJob job : new JobCatalog().all()) {
      assertTrue(listing.contains("  " + job.name() + " "), job.name() + ":\n" + listing);
      CliRun help = run("job", job.name(), "--help");
      assertEquals(0, help.exitCode(), job.name());
      assertTrue(help.out().startsWith("usage: locus job " + job.name()), help.out());
      for (var option : job.options()) {
        assertTrue(help.out().contains("--" + option.name()), job.name() + ": " + help.out());
      }
    }
  }

  @Test
  void benchRunHelpNamesEverySuite() {
    CliRun help = run("bench", "run", "--help");
    assertEquals(0, help.exitCode());
    assertTrue(help.out().startsWith("usage: locus bench run --suite NAME --out DIR"),
        help.out());
    assertTrue(help.out().contains("zone-groups"), help.out());
  }

  @Test
  void benchRunOfAnUnknownSuiteIsAUsageError() {
    CliRun run = run("bench", "run", "--suite", "pumas", "--out", "/tmp/x");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("unknown suite 'pumas'; one of: puma, puma-small"), run.err());
  }

  @Test
  void benchRunRefusesAnUnknownClusterKindAndNetnsOptionsWithoutNetns() {
    CliRun kind = run("bench", "run", "--suite", "puma-tiny", "--out", "/tmp/x", "--cluster",
        "yarn");
    assertEquals(2, kind.exitCode(), kind.toString());
    assertTrue(kind.err().contains("--cluster must be embedded, local or netns, got 'yarn'"),
        kind.err());
    CliRun link = run("bench", "run", "--suite", "puma-tiny", "--out", "/tmp/x", "--link",
        "10mbit");
    assertEquals(2, link.exitCode(), link.toString());
    assertTrue(link.err().contains("--link and --node-memory need --cluster netns"),
        link.err());
    CliRun rate = run("bench", "run", "--suite", "puma-tiny", "--out", "/tmp/x", "--cluster",
        "netns", "--link", "fast");
    assertEquals(2, rate.exitCode(), rate.toString());
    assertTrue(rate.err().contains("unknown rate 'fast' for --link"), rate.err());
  }

  @Test
  void generateHelpListsEveryKind() {
    CliRun help = run("generate", "--help");
    assertEquals(0, help.exitCode());
    for (String kind : new String[] {"text", "ratings", "edges", "itemsets", "tera"}) {
      assertTrue(help.out().contains("  " + kind + " "), help.out());
    }
  }

  @Test
  void unknownKindIsAUsageErrorNamingTheKinds() {
    CliRun run = run("generate", "movies", "--size", "1k", "--output", "/x");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("unknown data kind 'movies'; one of: text, ratings, edges,"
        + " itemsets, tera"), run.err());
  }

  @ParameterizedTest
  @ValueSource(strings = {"12x", "-5", "0"})
  void badSizeIsAUsageError(String size) {
    CliRun run = run("generate", "text", "--size", size, "--output", "/x");
    assertEquals(2, run.exitCode(), run.err());
    assertTrue(run.err().contains("--size"), run.err());
  }

  @Test
  void jobOptionOutOfRangeIsRefusedBeforeAnyClusterIsContacted() {
    CliRun run = run("job", "k-means", "--input", "/r", "--output", "/o", "--clusters", "0");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--clusters must be 1..10000, got 0"), run.err());
  }

  @Test
  void grepWithoutRegexIsAUsageError() {
    CliRun run = run("job", "grep", "--input", "/in", "--output", "/out");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--regex REGEX is required"), run.err());
  }

  @Test
  void twoTaskPlacementsAreAUsageErrorBeforeAnyClusterIsContacted() {
    CliRun run = run("job", "wordcount", "--input", "/in", "--output", "/out", "--superlocal",
        "--fast-node");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--superlocal and --fast-node each place the job's tasks;"
        + " choose one"), run.err());
  }

  @Test
  void teragenTakesNoInputOption() {
    CliRun run = run("job", "teragen", "--input", "/in", "--output", "/out", "--size", "1m");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--input"), run.err());
  }
}
