package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Sizes as typed on the command line. Milliseconds. */
class SizeTest {
  @Test
  void megabytesAndGigabytesAreBinary() {
    assertEquals(512L << 20, Size.bytes("node-memory", "512m"));
    assertEquals(2L << 30, Size.bytes("node-memory", " 2G "));
  }

  @Test
  void anythingElseNamesTheOption() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Size.bytes("disk-size", "2gb"));
    assertEquals("--disk-size needs a size like 512m or 2g, got '2gb'", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Size.bytes("disk-size", "0g"));
  }
}
