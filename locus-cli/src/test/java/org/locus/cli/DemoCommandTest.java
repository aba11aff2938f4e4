package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** {@code locus demo}, the README's main job, end to end on a smaller corpus. */
class DemoCommandTest {
  @Test
  void demoReportsPlacementOnFourHostsAndLocalityOfEveryJob() {
    File dir = new File("target/test-clusters/demo");
    CliRun run = CliRun.inProcess("demo", "--dir", dir.getPath(), "--files", "2",
        "--file-kib", "512");
    assertEquals(0, run.exitCode(), run.toString());
    for (String host : new String[] {"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"}) {
      assertTrue(Pattern.compile("(?m)^\\s+" + Pattern.quote(host) + "\\s+\\d+\\s+")
          .matcher(run.out()).find(), host + " in placement table\n" + run.out());
    }
    for (String job : new String[] {"locus-wordcount", "locus-grep-search", "locus-grep-sort"}) {
      Matcher row = Pattern.compile("(?m)^\\s+" + job + "\\s+ok\\s+[\\d.]+ s\\s+(\\d+)\\s+(\\d+)")
          .matcher(run.out());
      assertTrue(row.find(), job + " row in\n" + run.out());
      int maps = Integer.parseInt(row.group(1));
      int local = Integer.parseInt(row.group(2));
      assertTrue(maps >= 1 && local <= maps, job + ": " + local + " of " + maps);
    }
    assertTrue(run.err().contains("starting a 4-node embedded cluster"), run.err());
    Matcher kat = Pattern.compile("output identical: yes; cross-host shuffle KAT/native:"
        + " ([0-9.]+)").matcher(run.out());
    assertTrue(kat.find(), "KAT section in\n" + run.out());
    assertTrue(Double.parseDouble(kat.group(1)) <= 0.05, "KAT keeps the shuffle on the host");
  }
}
