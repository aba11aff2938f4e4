package org.locus.lowpower.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The codec bench's mechanics, on a small text sample. Costs under a second. */
class CodecBenchTest {
  private static final byte[] TEXT =
      "the quick brown fox jumps over the lazy dog\n".repeat(2000)
          .getBytes(StandardCharsets.UTF_8);

  private final CodecBench bench =
      new CodecBench(new Configuration(false), CodecBenchTest.class.getClassLoader());

  @Test
  void deflateRoundTripsAndShrinksRepetitiveText() {
    CodecResult deflate = bench.measure("org.apache.hadoop.io.compress.DefaultCodec", TEXT, 2);
    assertNull(deflate.unavailable());
    assertEquals(TEXT.length, deflate.inputBytes());
    assertTrue(deflate.ratio() < 0.1, "ratio " + deflate.ratio());
  }

  @Test
  void codecMissingFromTheClasspathIsReportedNotThrown() {
    CodecResult missing = bench.measure("org.example.NoSuchCodec", TEXT, 1);
    assertFalse(missing.available());
    assertEquals("NoSuch", missing.name());
    assertEquals("class not on the classpath", missing.unavailable());
  }

  @Test
  void recommendationRemovesTheMostBytesPerCpuSecond() {
    // saved MB per CPU second: 0.1*1000/2 = 50, 0.5*1000/20 = 25, 0.8*1000/200 = 4
    CodecResult cheapButWeak = new CodecResult("Weak", "w", 1000, 900, 1000, 1000, 1, null);
    CodecResult fast = new CodecResult("Fast", "f", 1000, 500, 10_000, 10_000, 1, null);
    CodecResult strong = new CodecResult("Strong", "s", 1000, 200, 100_000, 100_000, 1, null);
    CodecResult broken = CodecResult.unavailable("Broken", "b", "no native library");
    assertEquals("Weak", CodecBench.recommend(List.of(strong, broken, fast, cheapButWeak))
        .orElseThrow().name());
  }

  @Test
  void codecThatGrowsTheDataIsNeverRecommended() {
    CodecResult grows = new CodecResult("Grows", "g", 1000, 1001, 1, 1, 1, null);
    assertTrue(CodecBench.recommend(List.of(grows)).isEmpty());
  }
}
