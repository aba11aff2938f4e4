package org.locus.lzo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.cli.Locus;
import org.locus.cli.command.Console;

/**
 * {@code locus bench codecs --opt-in DIR} with the opt-in bundle's GPL jars in DIR, as
 * docs/lowpower.md runs it: both LZO codecs are measured next to the built-in ones. Costs
 * about 5 s.
 */
class LzoCodecBenchTest {
  @Test
  void optInBundleAddsBothLzoCodecsToTheBench(@TempDir Path optIn) throws IOException {
    List<String> jars = List.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .stream().filter(e -> e.matches(".*/lzo-(hadoop|core)-[^/]*\\.jar")).toList();
    assertEquals(2, jars.size(), "lzo-hadoop and lzo-core on the test classpath: " + jars);
    for (String jar : jars) {
      Files.copy(Path.of(jar), optIn.resolve(Path.of(jar).getFileName()));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new Locus().run(new String[] {"bench", "codecs", "--mib", "1", "--rounds", "1",
        "--opt-in", optIn.toString()},
        new Console(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    assertTrue(text.matches("(?s).*\\n  Lzo +0\\.\\d+ .*"), text);
    assertTrue(text.matches("(?s).*\\n  Lzop +0\\.\\d+ .*"), text);
  }
}
