package org.locus.kat.organize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.kat.ingest.BucketRange;

/** The ledger's arithmetic and file form, on the local file system. */
class InputLedgerTest {

  @Test
  void removingAnInputMovesTheRangesBehindItInTheSameBucketForward() throws IOException {
    InputLedger ledger = ledgerOf();
    ledger.add("a", 1, List.of(new BucketRange(0, 0, 10), new BucketRange(1, 0, 5)));
    ledger.add("b", 2, List.of(new BucketRange(0, 10, 7), new BucketRange(1, 5, 3)));
    ledger.add("c", 3, List.of(new BucketRange(0, 17, 4), new BucketRange(2, 0, 9)));

    List<BucketRange> cut = ledger.remove(List.of("b"));

    assertEquals(Set.of(new BucketRange(0, 10, 7), new BucketRange(1, 5, 3)), Set.copyOf(cut));
    assertNull(ledger.get("b"));
    assertEquals(List.of(new BucketRange(0, 0, 10), new BucketRange(1, 0, 5)),
        ledger.get("a").ranges(), "ranges before the cut stay");
    assertEquals(List.of(new BucketRange(0, 10, 4), new BucketRange(2, 0, 9)),
        ledger.get("c").ranges(), "bucket 0 moves forward by b's 7 bytes; bucket 2 is untouched");
  }

  @Test
  void anAppendToTheSameHandleAddsRangesAndANewInodeStartsOver() throws IOException {
    InputLedger ledger = ledgerOf();
    ledger.add("a", 1, List.of(new BucketRange(0, 0, 10)));
    ledger.add("a", 1, List.of(new BucketRange(0, 30, 2)));
    assertEquals(12, ledger.get("a").bytes());
    ledger.add("a", 9, List.of(new BucketRange(3, 0, 4)));
    assertEquals(9, ledger.get("a").inodeId());
    assertEquals(List.of(new BucketRange(3, 0, 4)), ledger.get("a").ranges());
  }

  @Test
  void namesWithTabsAndSpacesSurviveTheFile(@TempDir File dir) throws IOException {
    Path dataset = new Path(dir.toURI());
    FileSystem fs = FileSystem.getLocal(new Configuration());
    writeLedger(fs, dataset, "# comment\n"
        + "in%09put+one\t42\t0:0+10,3:5+2\n"
        + "empty\t7\t\n");
    InputLedger ledger = InputLedger.read(fs, dataset);
    assertEquals(List.of(new BucketRange(0, 0, 10), new BucketRange(3, 5, 2)),
        ledger.get("in\tput one").ranges());
    assertEquals(42, ledger.get("in\tput one").inodeId());
    assertEquals(List.of(), ledger.get("empty").ranges());
  }

  @Test
  void aMalformedLineIsRefusedNamingTheFileAndLine(@TempDir File dir) throws IOException {
    Path dataset = new Path(dir.toURI());
    FileSystem fs = FileSystem.getLocal(new Configuration());
    writeLedger(fs, dataset, "a\t1\t0:0+10\nb\t2\t0:10-7\n");
    IOException e = assertThrows(IOException.class, () -> InputLedger.read(fs, dataset));
    assertTrue(e.getMessage().contains("line 2") && e.getMessage().contains("inputs"),
        e.getMessage());
  }

  private static InputLedger ledgerOf() throws IOException {
    return InputLedger.read(FileSystem.getLocal(new Configuration()),
        new Path("/nonexistent-dataset-" + System.nanoTime()));
  }

  private static void writeLedger(FileSystem fs, Path dataset, String text) throws IOException {
    try (OutputStream out = fs.create(InputLedger.file(dataset))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
