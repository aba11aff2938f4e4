package org.locus.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kat.hint.KeyHints;
import org.locus.kat.hint.WordCountHint;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.organize.DatasetOrganizer;
import org.locus.kat.organize.InputLedger;
import org.locus.kat.placement.PlacementMap;
import org.locus.kat.verify.PlacementVerifier;
import org.locus.kat.verify.VerifyReport;
import org.locus.kit.LocusMiniCluster;

/**
 * KAT's system-level path: files written into a dataset's directory by a plain client are
 * organized by key by {@link DatasetOrganizer} following HDFS inotify, and end exactly where the
 * application-level {@code kat import --append} puts the same records; deleting, rewriting or
 * appending to such a file changes the buckets to match. 4 hosts, about a minute.
 */
class KatOrganizerTest {
  private static final Path CORPUS = new Path("/corpus");
  private static final Path MORE = new Path("/corpus-more");
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/kat-organizer"))
        .nodes(4)
        .volumes(StorageType.DISK)
        .set("dfs.blocksize", "131072")
        .set("dfs.replication", "2")
        .start();
    fs = cluster.getFileSystem();
    new ZipfTextGenerator(2000, 1.0, 3).write(fs, CORPUS, 2, 150 * 1024);
    new ZipfTextGenerator(2500, 1.0, 8).write(fs, MORE, 2, 60 * 1024);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void filesWrittenIntoADatasetEndWhereAnAppendOfTheSameRecordsPutsThem() throws Exception {
    Path byApplication = new Path("/kat/by-application");
    Path bySystem = new Path("/kat/by-system");
    importer().run(CORPUS, byApplication);
    importer().run(CORPUS, bySystem);
    assertEquals(PlacementMap.read(fs, byApplication), PlacementMap.read(fs, bySystem));

    importer().append(MORE, byApplication);
    try (Following organizer = Following.start(bySystem)) {
      List<FileStatus> inputs = List.of(fs.listStatus(MORE));
      // one file created and closed in place, one written aside and renamed in, as -put does
      copy(inputs.get(0).getPath(), new Path(bySystem, "landed-0"));
      Path copying = new Path(bySystem, "landed-1._COPYING_");
      copy(inputs.get(1).getPath(), copying);
      assertTrue(fs.rename(copying, new Path(bySystem, "landed-1")));
      organizer.awaitOrganized(2);
    }

    assertEquals(bucketContents(byApplication), bucketContents(bySystem),
        "same owners, same buckets, same records");
    assertEquals(0, fs.getFileStatus(new Path(bySystem, "landed-0")).getLen(),
        "an organized file stays only as its input's empty handle");
    assertEquals(0, fs.getFileStatus(new Path(bySystem, "landed-1")).getLen());
    VerifyReport report = new PlacementVerifier(fs, new WordCountHint())
        .verify(bySystem, PlacementMap.read(fs, bySystem), 3);
    assertEquals(0, report.splitKeys());
    assertEquals(0, report.blocksOffOwner());
  }

  @Test
  void aManagedEmptyDatasetOrganizesFilesThatWereThereBeforeAndAfterItsOrganizerStarted()
      throws Exception {
    Path dataset = new Path("/kat/managed");
    importer().createEmpty(dataset);
    Path before = new Path(dataset, "before");
    copy(new Path(CORPUS, fs.listStatus(CORPUS)[0].getPath().getName()), before);
    try (Following organizer = Following.start(dataset)) {
      organizer.awaitOrganized(1);
      copy(fs.listStatus(MORE)[0].getPath(), new Path(dataset, "after"));
      organizer.awaitOrganized(2);
    }
    VerifyReport report = new PlacementVerifier(fs, new WordCountHint())
        .verify(dataset, PlacementMap.read(fs, dataset), 3);
    assertTrue(report.records() > 0);
    assertEquals(0, report.splitKeys());
    assertEquals(0, report.misplacedBuckets());
  }

  @Test
  void deletedRewrittenAndGrownInputsAreReflectedInTheBuckets() throws Exception {
    Path dataset = new Path("/kat/updated");
    Path reference = new Path("/kat/updated-reference");
    importer().createEmpty(dataset);
    importer().createEmpty(reference);
    assertEquals(PlacementMap.read(fs, reference), PlacementMap.read(fs, dataset));
    Path[] corpus = paths(CORPUS);
    Path[] more = paths(MORE);
    Path a = new Path(dataset, "a");
    Path b = new Path(dataset, "b");
    Path c = new Path(dataset, "c");
    try (Following organizer = Following.start(dataset)) {
      copy(corpus[0], a);
      copy(corpus[1], b);
      copy(more[0], c);
      organizer.awaitChanges(3);
      long bInode = fs.getClient().getFileInfo(b.toString()).getFileId();

      assertTrue(fs.delete(a, false));
      organizer.awaitChanges(4);
      assertEquals(1, organizer.organizer.removed(), "a's records taken out");

      copy(more[1], b); // rewritten in place: a new inode under the same name
      assertFalse(bInode == fs.getClient().getFileInfo(b.toString()).getFileId());
      organizer.awaitChanges(6);

      try (InputStream in = fs.open(corpus[0]); OutputStream out = fs.append(c)) {
        IOUtils.copyBytes(in, out, 64 * 1024);
      }
      organizer.awaitChanges(7);
      assertEquals(2, organizer.organizer.removed());
      assertEquals(5, organizer.organizer.organized());
    }

    // the inputs the directory holds now, appended the application-level way
    importer().append(more[1], reference);
    importer().append(more[0], reference);
    importer().append(corpus[0], reference);
    assertEquals(bucketContents(reference), bucketContents(dataset),
        "exactly the records of the inputs present now, in the same buckets on the same owners");
    assertEquals(Set.of("b", "c"), InputLedger.read(fs, dataset).names());
    VerifyReport report = new PlacementVerifier(fs, new WordCountHint())
        .verify(dataset, PlacementMap.read(fs, dataset), 3);
    assertEquals(0, report.splitKeys());
    assertEquals(0, report.blocksOffOwner());
    assertEquals(0, report.misplacedBuckets());
  }

  @Test
  void aDirectoryThatIsNotADatasetIsRefusedByName() {
    IOException e = assertThrows(IOException.class,
        () -> new DatasetOrganizer(fs, List.of(CORPUS), line -> { }));
    assertTrue(e.getMessage().contains("is not a KAT dataset"), e.getMessage());
  }

  private static KatImporter importer() {
    return new KatImporter(fs, KeyHints.parse("wordcount", fs.getConf()), "wordcount",
        QueueDesign.CENTRAL, 16, p -> { });
  }

  private static Path[] paths(Path dir) throws IOException {
    return Arrays.stream(fs.listStatus(dir)).map(FileStatus::getPath).sorted()
        .toArray(Path[]::new);
  }

  private static void copy(Path from, Path to) throws IOException {
    try (InputStream in = fs.open(from); OutputStream out = fs.create(to)) {
      IOUtils.copyBytes(in, out, 64 * 1024);
    }
  }

  /** owner=HOST/bucket-N → the bucket's records, sorted. */
  private static Map<String, List<String>> bucketContents(Path dataset) throws IOException {
    Map<String, List<String>> buckets = new TreeMap<>();
    for (FileStatus owner : fs.listStatus(dataset)) {
      if (!owner.getPath().getName().startsWith("owner=")) {
        continue;
      }
      for (FileStatus bucket : fs.listStatus(owner.getPath())) {
        List<String> records = new ArrayList<>(
            KatImportTest.readTreeOf(fs, bucket.getPath()));
        Collections.sort(records);
        buckets.put(owner.getPath().getName() + "/" + bucket.getPath().getName(), records);
      }
    }
    return buckets;
  }

  /** An organizer following the NameNode's events in a thread of its own. */
  private static final class Following implements AutoCloseable {
    private final DatasetOrganizer organizer;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;

    private Following(Path dataset) throws IOException {
      organizer = new DatasetOrganizer(fs, List.of(dataset), line -> { });
      thread = new Thread(() -> {
        try {
          organizer.follow(running::get);
        } catch (Throwable t) {
          failure.set(t);
        }
      }, "kat-organizer");
    }

    static Following start(Path dataset) throws IOException {
      Following following = new Following(dataset);
      following.thread.start();
      return following;
    }

    void awaitOrganized(long files) throws Exception {
      long deadline = System.currentTimeMillis() + 90_000;
      while (organizer.organized() < files) {
        assertEquals(null, failure.get(), "the organizer failed");
        assertTrue(System.currentTimeMillis() < deadline,
            organizer.organized() + " of " + files + " files organized");
        Thread.sleep(100);
      }
    }

    /** Waits until {@code count} inputs were organized or removed in all. */
    void awaitChanges(long count) throws Exception {
      long deadline = System.currentTimeMillis() + 90_000;
      while (organizer.changes() < count) {
        assertEquals(null, failure.get(), "the organizer failed");
        assertTrue(System.currentTimeMillis() < deadline,
            organizer.changes() + " of " + count + " inputs organized or removed");
        Thread.sleep(100);
      }
    }

    @Override
    public void close() throws Exception {
      running.set(false);
      thread.join(30_000);
      if (failure.get() != null) {
        throw new AssertionError("the organizer failed", failure.get());
      }
    }
  }
}
