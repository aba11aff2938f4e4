package org.locus.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.locus.cli.Locus;
import org.locus.cli.command.Console;

/**
 * {@code locus bench codecs} as docs/lowpower.md tells users to run it without the opt-in
 * bundle (the LZO variant runs in locus-lzo). Costs about 5 s.
 */
class CodecBenchCommandTest {
  @Test
  void benchMeasuresTheBuiltInCodecsAndRecommendsOne() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new Locus().run(new String[] {"bench", "codecs", "--mib", "1", "--rounds", "1"},
        new Console(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    assertTrue(text.matches("(?s).*\\n  Default +0\\.\\d+ .*"), text);
    assertTrue(text.matches("(?s).*\\n  Lz4 +0\\.\\d+ .*"), text);
    assertTrue(text.contains("Recommended: "), text);
  }

  @Test
  void optInDirectoryWithoutJarsIsAUsageError() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new Locus().run(new String[] {"bench", "codecs", "--opt-in", "/nonexistent"},
        new Console(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertEquals(Locus.EXIT_USAGE, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--opt-in /nonexistent holds no jar"));
  }
}
