package org.locus.jobs.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The seeded generators: size, format of every line, reproducibility. No MapReduce. */
class DataGeneratorsTest {
  private static final long SIZE = 200_000;
  @TempDir
  File tmp;

  private byte[] generate(String kind, long seed, String dir) throws IOException {
    Path out = new Path(new File(tmp, dir).toURI());
    long written = new DataGenerators().get(kind).write(FileSystem.getLocal(new Configuration()),
        out, SIZE, 3, seed);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    File[] parts = new File(tmp, dir).listFiles((d, n) -> n.startsWith("part-"));
    Arrays.sort(parts);
    assertEquals(3, parts.length);
    for (File part : parts) {
      all.write(Files.readAllBytes(part.toPath()));
    }
    assertEquals(written, all.size(), "reported size is the size on disk");
    return all.toByteArray();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "text|^\\w+( \\w+){5,13}$",
      "ratings|^\\d+:\\d+_[1-5](,\\d+_[1-5])*$",
      "edges|^\\d+\\t\\d+$",
      "itemsets|^\\d+,\\d+,\\d+$"})
  void lineKindsWriteTheirSizeInWellFormedLines(String kind, String lineFormat)
      throws IOException {
    byte[] data = generate(kind, 1, kind);
    assertTrue(data.length >= SIZE && data.length < SIZE + 3 * 2000, kind + ": " + data.length);
    Pattern format = Pattern.compile(lineFormat);
    for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
      assertTrue(format.matcher(line).matches(), kind + " line '" + line + "'");
    }
  }

  @Test
  void itemsetsAreAscending() throws IOException {
    for (String line : new String(generate("itemsets", 1, "i"), StandardCharsets.UTF_8)
        .split("\n")) {
      long[] items = Arrays.stream(line.split(",")).mapToLong(Long::parseLong).toArray();
      assertTrue(items[0] < items[1] && items[1] < items[2], line);
    }
  }

  @Test
  void ratingsHaveUniqueMovieIds() throws IOException {
    List<String> lines = List.of(new String(generate("ratings", 1, "r"),
        StandardCharsets.UTF_8).split("\n"));
    assertEquals(lines.size(), lines.stream().map(l -> l.substring(0, l.indexOf(':')))
        .distinct().count());
  }

  @Test
  void teraWritesWholeHundredByteRecordsRoundedDown() throws IOException {
    byte[] data = generate("tera", 1, "tera");
    assertEquals(SIZE / 100 * 100, data.length);
    for (int i = 0; i < data.length; i += 100) {
      assertEquals('\r', data[i + 98]);
      assertEquals('\n', data[i + 99]);
      assertEquals(String.format("%032X", i / 100),
          new String(data, i + 12, 32, StandardCharsets.US_ASCII));
    }
  }

  @ParameterizedTest
  @CsvSource({"text", "ratings", "edges", "itemsets", "tera"})
  void equalSeedsGiveEqualDataAndOtherSeedsOther(String kind) throws IOException {
    byte[] first = generate(kind, 7, "a");
    assertArrayEquals(first, generate(kind, 7, "b"));
    assertFalse(Arrays.equals(first, generate(kind, 8, "c")));
  }

  @Test
  void unknownKindIsRefusedNamingTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new DataGenerators().get("movies"));
    assertEquals("unknown data kind 'movies'; one of: text, ratings, edges, itemsets, tera",
        e.getMessage());
  }
}
