package org.locus.bench.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The checksum bench's request: defaults, the configurations it expands to, refusals. */
class ChecksumBenchRequestTest {
  @Test
  void defaultsSweepSixChunksOverFourWriteSizesThreeBufferedAndBothReplications() {
    ChecksumBenchRequest request = ChecksumBenchRequest.parse(Map.of());
    assertEquals(List.of(512, 1024, 2048, 4096, 8192, 16384), request.bytesPerChecksum());
    assertEquals(List.of(8, 100, 4096, 65536), request.writeSizes());
    assertEquals(List.of(1, 3), request.replications());
    assertEquals(3, request.nodes());
    assertEquals(64L << 20, request.fileBytes());
    // 8 B, 100 B and 4 KiB also go through the 64 KiB buffer; 64 KiB writes would pass through
    assertEquals(2 * (4 + 3) * 6, request.settings().size());
  }

  @Test
  void stockChunkIsMeasuredEvenWhenTheSweepLeavesItOut() {
    ChecksumBenchRequest request = ChecksumBenchRequest.parse(
        Map.of("bytes-per-checksum", "8192,4096"));
    assertEquals(List.of(512, 4096, 8192), request.bytesPerChecksum());
  }

  @Test
  void everyConfigurationHasItsStockCounterpartInTheSweep() {
    ChecksumBenchRequest request = ChecksumBenchRequest.parse(Map.of("write-sizes",
        "100,65536", "buffer", "65536", "bytes-per-checksum", "4096", "replication", "2"));
    List<ChecksumSetting> settings = request.settings();
    assertEquals(List.of(
        new ChecksumSetting(2, 100, 0, 512), new ChecksumSetting(2, 100, 0, 4096),
        new ChecksumSetting(2, 100, 65536, 512), new ChecksumSetting(2, 100, 65536, 4096),
        new ChecksumSetting(2, 65536, 0, 512), new ChecksumSetting(2, 65536, 0, 4096)),
        settings);
    for (ChecksumSetting s : settings) {
      assertTrue(settings.contains(s.stock()), s.toString());
    }
    assertEquals(new ChecksumSetting(2, 100, 0, 512),
        new ChecksumSetting(2, 100, 65536, 4096).stock());
  }

  @Test
  void bufferZeroMeasuresNoBufferedVariant() {
    assertTrue(ChecksumBenchRequest.parse(Map.of("buffer", "0")).settings().stream()
        .noneMatch(ChecksumSetting::buffered));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "bytes-per-checksum | 1000     | --bytes-per-checksum 1000 is not a power of two",
      "bytes-per-checksum | 0        | --bytes-per-checksum must be 64..1048576, got 0",
      "bytes-per-checksum | -512     | --bytes-per-checksum must be 64..1048576, got -512",
      "bytes-per-checksum | 512,,4096| --bytes-per-checksum needs whole numbers, got ''",
      "bytes-per-checksum | 4k       | --bytes-per-checksum needs whole numbers, got '4k'",
      "write-sizes        | 0        | --write-sizes must be 1..1048576, got 0",
      "buffer             | -1       | --buffer must be 0..16777216, got -1",
      "replication        | 1,6      | --replication must be 1..5, got 6",
      "mib                | 0        | --mib must be 1..1024, got 0",
      "rounds             | 0        | --rounds must be 1..50, got 0",
      "rounds             | three    | --rounds needs whole numbers, got 'three'"})
  void refusesABadValueNamingTheOption(String option, String value, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ChecksumBenchRequest.parse(Map.of(option, value)));
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
  }
}
