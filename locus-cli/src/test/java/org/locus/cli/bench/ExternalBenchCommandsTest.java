package org.locus.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code locus bench zone} and {@code locus bench morphstore} run their programs from the Locus
 * home, through {@code bin/locus} as a user types them: {@code --help} reaches the program's own
 * usage. (The zone bench once still named the {@code zonectl bench} subcommand after it had
 * moved to {@code zonectl/bench/run}, and printed zonectl's command list instead.)
 */
class ExternalBenchCommandsTest {
  @ParameterizedTest
  @CsvSource({"zone, usage: zonectl/bench/run", "morphstore, usage:"})
  void helpReachesTheBenchProgramsOwnUsage(String bench, String usage) throws Exception {
    File root = new File(System.getProperty("user.dir")).getParentFile();
    ProcessBuilder builder = new ProcessBuilder("bin/locus", "bench", bench, "--help")
        .directory(root).redirectErrorStream(true);
    builder.environment().put("LOCUS_CLASSPATH", System.getProperty("java.class.path"));
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "bin/locus bench " + bench + " --help");
    assertEquals(0, process.exitValue(), out);
    assertTrue(out.contains(usage), out);
    assertTrue(!out.contains("commands:\n  info"), "zonectl's own command list: " + out);
  }
}
