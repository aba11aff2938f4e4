package org.locus.cli.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.locus.cli.Console;

/** The energy section of {@code locus demo}, on its own. */
class EnergyDemoTest {
  @Test
  void demoShowsBackupsInStandbyUnreadThroughWordCountAndTheComparison() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    EnergyDemo.run(new File("target/test-clusters/energy-demo"), new Console(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("Energy-efficient HDFS: WordCount ok"), text);
    // the demo waits for every backup to be in standby before the job; reads are sent to
    // primaries, so no read reaches a backup while it runs (writes of the output may wake one)
    assertTrue(text.contains("every backup was in standby when WordCount started; read"
        + " operations on backup disks during it: 0\n"), text);
    assertEquals(3, Pattern.compile("(?m)^\\s+\\S+\\s+\\S+\\s+backup\\s").matcher(text)
        .results().count(), "one backup row per node: " + text);
    assertTrue(text.contains("always-on (ratio"), text);
  }
}
