package org.locus.kat.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a dataset's placement map: a damaged one is refused naming its file. */
class PlacementMapTest {
  @TempDir
  File dir;
  private FileSystem fs;
  private Path dataset;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
    dataset = new Path(new Path(dir.toURI()), "dataset");
  }

  private void write(String text) throws IOException {
    try (OutputStream out = fs.create(OwnerPaths.placementFile(dataset), true)) {
      out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    }
  }

  private void assertRefusedNamingTheFile(String text) throws IOException {
    write(text);
    IOException e = assertThrows(IOException.class, () -> PlacementMap.read(fs, dataset));
    assertTrue(e.getMessage().startsWith(OwnerPaths.placementFile(dataset) + " is malformed"),
        e.getMessage());
  }

  @Test
  void aMapWrittenIsReadBack() throws IOException {
    new PlacementMap("key", 4, List.of("h2", "h1")).write(fs, dataset);
    PlacementMap map = PlacementMap.read(fs, dataset);
    assertEquals(4, map.buckets());
    assertEquals(List.of("h1", "h2"), map.hosts());
  }

  @Test
  void aBucketCountBelowOneIsRefusedHereNotInThePlacementRule() throws IOException {
    // read() took it and KeyOwnership threw later, without the file (locus-fuzz)
    assertRefusedNamingTheFile("version=2\nhint=k\nbuckets=0\nhosts=h1\n");
  }

  @Test
  void aMalformedUnicodeEscapeIsRefusedNamingTheFile() throws IOException {
    // Properties.load threw IllegalArgumentException 'Malformed \\uxxxx encoding.'
    assertRefusedNamingTheFile("version=2\nhint=k\nbuckets=2\nhosts=\\u00zz\n");
  }
}
