package org.locus.jobs.puma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.jobs.LocalJobFixture;
import org.locus.jobs.catalog.JobResult;
import org.locus.jobs.data.DataGenerators;

/**
 * teragen, terasort and teravalidate: teragen writes what the client-side generator writes;
 * terasort's part files, concatenated in name order, are the input's records sorted by key
 * (checked here with {@link Arrays#compareUnsigned}); teravalidate accepts that and rejects
 * unsorted data. 2,000 records, three reducers.
 */
class TeraSortTest {
  private static final int RECORDS = 2000;
  @TempDir
  static File tmp;
  private static LocalJobFixture jobs;
  private static File generated;
  private static File sorted;

  @BeforeAll
  static void generateAndSort() throws Exception {
    jobs = new LocalJobFixture(tmp);
    generated = new File(tmp, "tera");
    new DataGenerators().get("tera").write(FileSystem.getLocal(jobs.conf()),
        new Path(generated.toURI()), RECORDS * 100L, 2, 9);
    sorted = jobs.run("terasort", generated, 3);
  }

  private static byte[] concat(List<File> files) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (File file : files) {
      all.write(Files.readAllBytes(file.toPath()));
    }
    return all.toByteArray();
  }

  private static List<byte[]> records(byte[] data) {
    List<byte[]> records = new ArrayList<>();
    for (int i = 0; i < data.length; i += 100) {
      records.add(Arrays.copyOfRange(data, i, i + 100));
    }
    return records;
  }

  @Test
  void teragenWritesTheSameRecordsAsTheGenerator() throws Exception {
    File output = jobs.run("teragen", null, 0, "size", String.valueOf(RECORDS * 100), "maps",
        "3", "seed", "9");
    assertArrayEquals(concat(LocalJobFixture.parts(generated)),
        concat(LocalJobFixture.parts(output)));
  }

  @Test
  void terasortOutputIsTheInputSortedByKeyAcrossPartFiles() throws Exception {
    List<byte[]> expected = records(concat(LocalJobFixture.parts(generated)));
    expected.sort((a, b) -> Arrays.compareUnsigned(a, 0, 10, b, 0, 10));
    List<File> parts = LocalJobFixture.parts(sorted);
    assertEquals(3, parts.size());
    List<byte[]> actual = records(concat(parts));
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < actual.size(); i++) {
      assertArrayEquals(Arrays.copyOf(expected.get(i), 10), Arrays.copyOf(actual.get(i), 10),
          "key of record " + i);
    }
    assertTrue(parts.stream().allMatch(p -> p.length() > 0), "every reducer got a range");
  }

  @Test
  void teravalidateAcceptsSortedOutputWithTheRightCount() throws Exception {
    JobResult result = jobs.runResult("teravalidate", sorted, new File(tmp, "valid-ok"), 1,
        "records", String.valueOf(RECORDS));
    assertTrue(result.passed(), result.toString());
  }

  @Test
  void teravalidateRejectsAShuffledFile() throws Exception {
    JobResult result = jobs.runResult("teravalidate", generated, new File(tmp, "valid-bad"), 1);
    assertTrue(result.jobs().get(0).succeeded());
    assertFalse(result.passed());
    assertTrue(result.problems().get(0).contains("is not sorted"), result.toString());
  }

  @Test
  void teravalidateRejectsAWrongRecordCount() throws Exception {
    JobResult result = jobs.runResult("teravalidate", sorted, new File(tmp, "valid-count"), 1,
        "records", String.valueOf(RECORDS + 1));
    assertFalse(result.passed());
    assertTrue(result.problems().get(0).contains("holds " + RECORDS + " records, expected"),
        result.toString());
  }
}
