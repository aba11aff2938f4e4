package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Rates as typed on the command line. Milliseconds. */
class RateTest {
  @Test
  void linkRatesAreDecimalBitsPerSecond() {
    assertEquals(10_000_000L, Rate.linkBitsPerSecond("link", "10mbit"));
    assertEquals(500_000L, Rate.linkBitsPerSecond("link", "500kbit"));
    assertEquals(0L, Rate.linkBitsPerSecond("link", "none"));
    assertEquals("10mbit", Rate.formatLink(10_000_000L));
  }

  @Test
  void diskRatesAreDecimalBytesPerSecond() {
    assertEquals(20_000_000L, Rate.diskBytesPerSecond("disk-read", "20MB/s"));
    assertEquals(0L, Rate.diskBytesPerSecond("disk-read", "none"));
    assertEquals("20MB/s", Rate.formatDisk(20_000_000L));
  }

  @Test
  void unknownRateNamesTheOptionAndTheAcceptedForms() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Rate.linkBitsPerSecond("link", "10mbps"));
    assertTrue(e.getMessage().contains("unknown rate '10mbps' for --link"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Rate.diskBytesPerSecond("disk-read",
        "0MB/s"));
  }

  @Test
  void maxNodesLeavesRoomForTheMaster() {
    NetnsClusterSpec spec = NetnsClusterSpec.builder(4, new java.io.File("/nonexistent"))
        .yarn(true).nodeMemory(2L << 30).diskSize(1L << 30).build();
    assertEquals(9, spec.maxNodes((21L << 30)));
    assertEquals(1280, spec.containerMemoryMb());
  }
}
