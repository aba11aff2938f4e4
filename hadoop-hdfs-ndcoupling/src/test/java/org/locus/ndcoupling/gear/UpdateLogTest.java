package org.locus.ndcoupling.gear;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The update log's durability rules: what a crash leaves, what damage is, compaction. */
class UpdateLogTest {
  @TempDir
  Path dir;

  private static void appendThree(UpdateLog log) throws IOException {
    log.append(11, "/a", "h1", "h3", 1000);
    log.append(12, "/b", "h2", "h4", 1001);
    log.append(13, "/c", "h1", "h3", 1002);
  }

  @Test
  void pendingEntriesSurviveReopening() throws IOException {
    Path file = dir.resolve("update.log");
    try (UpdateLog log = UpdateLog.open(file)) {
      appendThree(log);
      log.retire(List.of(log.pending().get(1)));
    }
    try (UpdateLog log = UpdateLog.open(file)) {
      assertEquals(List.of("/a", "/c"), log.pending().stream().map(UpdateLogEntry::path)
          .toList());
      assertEquals(new UpdateLogEntry(1, 11, "/a", "h1", "h3", 1000), log.pending().get(0));
      UpdateLogEntry next = log.append(14, "/d", "h2", "h4", 1003);
      assertEquals(4, next.sequence(), "sequence numbers go on after a reopen");
    }
  }

  @Test
  void aTornLastRecordIsCutAndTheRestKept() throws IOException {
    Path file = dir.resolve("update.log");
    try (UpdateLog log = UpdateLog.open(file)) {
      appendThree(log);
    }
    long size = Files.size(file);
    try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
      raw.setLength(size - 5);  // a crash in the middle of the third append
    }
    assertEquals(2, UpdateLog.readPending(file).size(), "a reader skips the torn record");
    assertEquals(size - 5, Files.size(file), "readPending does not change the file");
    try (UpdateLog log = UpdateLog.open(file)) {
      assertEquals(List.of("/a", "/b"), log.pending().stream().map(UpdateLogEntry::path)
          .toList());
      log.append(13, "/c", "h1", "h3", 1002);
    }
    assertEquals(3, UpdateLog.readPending(file).size(), "appends go on after the cut");
  }

  @Test
  void aDamagedRecordBeforeIntactOnesIsRefusedNamingTheOffset() throws IOException {
    Path file = dir.resolve("update.log");
    try (UpdateLog log = UpdateLog.open(file)) {
      appendThree(log);
    }
    try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
      raw.seek(12);
      raw.write(raw.read() ^ 0xff);  // inside the first record's payload
    }
    IOException refused = assertThrows(IOException.class, () -> UpdateLog.open(file));
    assertTrue(refused.getMessage().contains("damaged at offset 0"), refused.getMessage());
    assertTrue(refused.getMessage().contains(file.toString()), refused.getMessage());
  }

  @Test
  void compactionKeepsOnlyPendingEntries() throws IOException {
    Path file = dir.resolve("update.log");
    try (UpdateLog log = UpdateLog.open(file)) {
      appendThree(log);
      long before = log.sizeBytes();
      log.retire(log.pending().subList(0, 2));
      log.compact();
      assertTrue(log.sizeBytes() < before / 2, log.sizeBytes() + " of " + before);
      log.append(14, "/d", "h2", "h4", 1003);
    }
    assertEquals(List.of("/c", "/d"), UpdateLog.readPending(file).stream()
        .map(UpdateLogEntry::path).toList());
  }
}
