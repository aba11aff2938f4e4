package org.locus.cli.energy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.locus.cli.Console;

/** The energy section of {@code locus demo}, on its own. */
class EnergyDemoTest {
  @Test
  void demoShowsBackupsAsleepThroughWordCountAndTheComparison() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    EnergyDemo.run(new File("target/test-clusters/energy-demo"), new Console(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("Energy-efficient HDFS: WordCount ok"), text);
    assertTrue(text.matches("(?s).*backup\\s+(STANDBY|WAKING|IDLE|ACTIVE)\\s+\\d.*"), text);
    assertTrue(text.contains("always-on (ratio"), text);
  }
}
