package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code locus demo}, the README's main job, end to end on a smaller corpus, as its own process
 * (as {@code bin/locus demo} runs it): what it shows and that it shows nothing else — Hadoop's
 * logs go to the demo's log file, never to the terminal.
 */
class DemoCommandTest {
  private static final File DIR = new File("target/test-clusters/demo").getAbsoluteFile();
  private static CliRun run;

  @BeforeAll
  static void runTheDemo() throws Exception {
    FileUtil.fullyDelete(DIR);
    run = CliRun.asProcess(new File("..").getAbsoluteFile(), "2g", 15, "demo", "--dir",
        DIR.getPath(), "--files", "2", "--file-kib", "512");
    assertEquals(0, run.exitCode(), run.toString());
  }

  @Test
  void reportsPlacementOnFourHostsAndLocalityOfEveryJob() {
    for (String host : new String[] {"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"}) {
      assertTrue(Pattern.compile("(?m)^\\s+" + Pattern.quote(host) + "\\s+\\d+\\s+")
          .matcher(run.out()).find(), host + " in placement table\n" + run.out());
    }
    for (String job : new String[] {"locus-grep-search"}) {
      Matcher row = Pattern.compile("(?m)^\\s+" + job + "\\s+ok\\s+[\\d.]+ s\\s+(\\d+)\\s+(\\d+)")
          .matcher(run.out());
      assertTrue(row.find(), job + " row in\n" + run.out());
      int maps = Integer.parseInt(row.group(1));
      int local = Integer.parseInt(row.group(2));
      assertTrue(maps >= 1 && local <= maps, job + ": " + local + " of " + maps);
    }
    assertTrue(run.err().contains("starting a 4-node embedded cluster"), run.err());
  }

  @Test
  void katKeepsTheShuffleOnItsHostAndComputesTheSlowNetworkCost() {
    Matcher kat = Pattern.compile("output identical: yes; cross-host shuffle KAT/native:"
        + " ([0-9.]+)").matcher(run.out());
    assertTrue(kat.find(), "KAT section in\n" + run.out());
    assertTrue(Double.parseDouble(kat.group(1)) <= 0.05, "KAT keeps the shuffle on the host");
    assertTrue(run.out().contains("(computed: bytes x 8 / (4 x 10 Mbit/s)"), run.out());
  }

  @Test
  void backupDisksSleepThroughTheReadHeavyJob() {
    Matcher backups = Pattern.compile("(?m)^\\s+127\\.0\\.0\\.\\d+\\s+\\S+\\s+backup\\s+(\\S+)"
        + "\\s+([\\d.]+) %\\s+(\\d+)").matcher(run.out());
    int rows = 0;
    while (backups.find()) {
      rows++;
      assertEquals("STANDBY", backups.group(1), backups.group());
      assertEquals("0", backups.group(3), "no spin-up during the job: " + backups.group());
    }
    assertEquals(3, rows, "one backup disk per node in\n" + run.out());
    assertTrue(run.out().contains("Verdict: backups slept through the read-heavy job"),
        run.out());
  }

  @Test
  void everySectionEndsWithAVerdict() {
    List<String> verdicts = run.out().lines().filter(l -> l.startsWith("Verdict: ")).toList();
    assertEquals(3, verdicts.size(), "baseline, KAT, energy:\n" + run.out());
  }

  @Test
  void hadoopLogsGoToTheDemoLogFileNotTheTerminal() throws Exception {
    String terminal = run.out() + run.err();
    for (String line : terminal.lines().toList()) {
      assertFalse(line.matches(".*\\b(WARN|WARNING|ERROR|Exception)\\b.*")
          || line.startsWith("\tat "), "Hadoop chatter on the terminal: " + line);
    }
    File log = new File(DIR, "logs/hadoop.log");
    assertTrue(Files.readString(log.toPath()).contains("NameNode"), "Hadoop's log in " + log);
  }
}
