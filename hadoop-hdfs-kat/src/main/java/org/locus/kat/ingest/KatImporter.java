package org.locus.kat.ingest;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.kat.hint.GrepHint;
import org.locus.kat.hint.KeyHint;
import org.locus.kat.placement.BoundedLoadAssignment;
import org.locus.kat.placement.KeyOwnership;
import org.locus.kat.placement.OwnerPaths;
import org.locus.kat.placement.PlacementMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Imports text into a KAT dataset: every input entry is split by the job's {@link KeyHint}, each
 * keyed record goes to its key's bucket, and each bucket is stored on its owner (seed 000
 * §3.4.3, pre-calculation and data distribution modules).
 *
 * <p>An import is atomic. Everything is written under a hidden sibling directory
 * ({@code .NAME.importing-UUID}); only when every bucket file is closed, every owner is still
 * live and the stored byte count matches what was queued is it renamed to the output path. A
 * failure deletes the hidden directory, so no dataset that looks complete is ever partial.
 */
public final class KatImporter {
  private static final Logger LOG = LoggerFactory.getLogger(KatImporter.class);
  /** How long the owner's replica of a just-written block may take to be reported. */
  static final long OWNER_REPLICA_TIMEOUT_MS = 30_000;

  /** Progress of a running import, reported about every second. */
  public record Progress(long entries, long inputBytes, long records) {
  }

  /**
   * Sees every record right after it was handed to its bucket's file. Tests use it to act at a
   * known point of an import (for example to stop a DataNode once a bucket has filled its first
   * block); an exception it throws fails the import like a write error would.
   */
  public interface WriteObserver {
    /**
     * @param bucket the record's bucket
     * @param owner the bucket's owner host
     * @param bucketBytes bytes handed to the bucket so far, this record included
     */
    void written(int bucket, String owner, long bucketBytes) throws IOException;
  }

  private final DistributedFileSystem fs;
  private final KeyHint hint;
  private final String hintSpec;
  private final QueueDesign design;
  private final int buckets;
  private final Consumer<Progress> progress;
  private WriteObserver observer = (bucket, owner, bytes) -> { };

  public KatImporter(DistributedFileSystem fs, KeyHint hint, String hintSpec, QueueDesign design,
      int buckets, Consumer<Progress> progress) {
    this.fs = fs;
    this.hint = hint;
    this.hintSpec = hintSpec;
    this.design = design;
    this.buckets = buckets;
    this.progress = progress;
  }

  /** Sets the observer of written records (none by default); returns this importer. */
  public KatImporter observeWrites(WriteObserver writeObserver) {
    this.observer = writeObserver;
    return this;
  }

  /**
   * @param input a file or directory, local ({@code file:} scheme) or on the cluster
   * @param output the dataset directory to create; must not exist
   */
  public ImportReport run(Path input, Path output) throws IOException {
    long start = System.nanoTime();
    FileSystem inputFs = input.getFileSystem(fs.getConf());
    List<Path> files = inputFiles(inputFs, input);
    Path dataset = fs.makeQualified(output);
    if (fs.exists(dataset)) {
      throw new IOException("output " + dataset + " already exists; remove it or choose"
          + " another --output");
    }
    Map<String, InetSocketAddress> liveHosts = LiveDataNodes.of(fs);
    List<String> hosts = new ArrayList<>(liveHosts.keySet());
    KeyOwnership rendezvous = new KeyOwnership(buckets, hosts);
    long[] bucketBytes = new long[buckets];
    long[] keyless = {0};
    for (Path file : files) {
      measureBuckets(inputFs, file, rendezvous, bucketBytes, keyless);
    }
    long unsplittableBefore = unsplittableEntries();
    PlacementMap map = new PlacementMap(hintSpec, buckets, hosts,
        BoundedLoadAssignment.assign(rendezvous, bucketBytes, null));
    KeyOwnership ownership = map.ownership();
    Path staging = new Path(dataset.getParent(),
        "." + dataset.getName() + ".importing-" + UUID.randomUUID());
    LOG.info("Importing {} into {} ({} buckets over {} hosts, {} queues)", input, dataset,
        buckets, liveHosts.size(), design);
    boolean done = false;
    try {
      OwnerPaths.declare(fs, staging);
      BucketFiles bucketFiles = new BucketFiles(fs, staging, ownership, liveHosts,
          fs.getDefaultReplication(staging), fs.getDefaultBlockSize(staging));
      Counting counting = new Counting(ownership);
      try (BucketSink sink = design == QueueDesign.CENTRAL
          ? new CentralQueues(bucketFiles, buckets) : new PerNodeStreams(bucketFiles, buckets)) {
        counting.sink = sink;
        for (Path file : files) {
          readEntries(inputFs, file, counting);
        }
        sink.finish();
      }
      checkComplete(staging, counting, liveHosts);
      map.write(fs, staging);
      if (!fs.rename(staging, dataset)) {
        throw new IOException("could not move the finished import " + staging + " to "
            + dataset);
      }
      done = true;
      long unsplittable = unsplittableEntries() - unsplittableBefore;
      return new ImportReport(dataset.toString(), counting.entries, counting.records,
          counting.inputBytes, counting.storedBytes, counting.bytesPerOwner, unsplittable,
          (System.nanoTime() - start) / 1_000_000);
    } finally {
      if (!done) {
        fs.delete(staging, true);
      }
    }
  }

  /**
   * Creates an empty dataset for this importer's hint: declared, with a placement map of plain
   * rendezvous owners over the live DataNodes (no sizing pass: there is no data yet). Records
   * arrive later by {@link #append}, from {@code kat import --append} or from files written into
   * the dataset's directory and organized by {@code DatasetOrganizer}.
   *
   * @throws IOException if {@code output} exists
   */
  public PlacementMap createEmpty(Path output) throws IOException {
    Path dataset = fs.makeQualified(output);
    if (fs.exists(dataset)) {
      throw new IOException(dataset + " already exists; manage a new directory");
    }
    List<String> hosts = new ArrayList<>(LiveDataNodes.of(fs).keySet());
    KeyOwnership rendezvous = new KeyOwnership(buckets, hosts);
    PlacementMap map = new PlacementMap(hintSpec, buckets, hosts,
        BoundedLoadAssignment.assign(rendezvous, new long[buckets], null));
    Path staging = new Path(dataset.getParent(),
        "." + dataset.getName() + ".creating-" + UUID.randomUUID());
    boolean done = false;
    try {
      OwnerPaths.declare(fs, staging);
      map.write(fs, staging);
      if (!fs.rename(staging, dataset)) {
        throw new IOException("could not move the new dataset " + staging + " to " + dataset);
      }
      done = true;
      return map;
    } finally {
      if (!done) {
        fs.delete(staging, true);
      }
    }
  }

  /**
   * Adds the records of {@code input} to an existing dataset (seed 000 §3.4's data updates):
   * each record goes to the bucket its key already has, appended to that bucket's file on the
   * bucket's owner, so the dataset keeps 0 split keys and its placement map is unchanged. The
   * dataset's hint must be this importer's. Either every record is appended, or, on failure,
   * every bucket file is returned to what it held before.
   *
   * @param dataset an existing KAT dataset
   * @throws IOException naming the dataset, the hint or the owner that stops the append
   */
  public ImportReport append(Path input, Path dataset) throws IOException {
    return appendRecorded(input, dataset).report();
  }

  /** What an append did, and where: the bucket ranges its records now occupy. */
  public record Appended(ImportReport report, List<BucketRange> ranges) {
  }

  /**
   * {@link #append}, also returning the byte range of each bucket file the records went to, so
   * they can be taken out again if their input is deleted or rewritten.
   */
  public Appended appendRecorded(Path input, Path dataset) throws IOException {
    long start = System.nanoTime();
    FileSystem inputFs = input.getFileSystem(fs.getConf());
    List<Path> files = inputFiles(inputFs, input);
    Path target = fs.makeQualified(dataset);
    PlacementMap map = PlacementMap.read(fs, target);
    if (!map.hint().equals(hintSpec)) {
      throw new IOException(target + " was imported with key hint '" + map.hint()
          + "'; append with the same hint, not '" + hintSpec + "'");
    }
    Map<String, InetSocketAddress> liveHosts = LiveDataNodes.of(fs);
    KeyOwnership ownership = map.ownership();
    for (int bucket = 0; bucket < map.buckets(); bucket++) {
      String owner = ownership.ownerOfBucket(bucket);
      if (!liveHosts.containsKey(owner)) {
        throw new IOException("owner " + owner + " of " + target + " is not a live DataNode;"
            + " run 'locus kat rebalance' first, then append");
      }
    }
    long unsplittableBefore = unsplittableEntries();
    LOG.info("Appending {} to {} ({} buckets, {} queues)", input, target, map.buckets(), design);
    BucketFiles bucketFiles = BucketFiles.appending(fs, target, ownership, liveHosts,
        fs.getDefaultReplication(target), fs.getDefaultBlockSize(target));
    Counting counting = new Counting(ownership);
    boolean done = false;
    try {
      try (BucketSink sink = design == QueueDesign.CENTRAL
          ? new CentralQueues(bucketFiles, map.buckets())
          : new PerNodeStreams(bucketFiles, map.buckets())) {
        counting.sink = sink;
        for (Path file : files) {
          readEntries(inputFs, file, counting);
        }
        sink.finish();
      }
      checkAppended(bucketFiles, counting, ownership);
      done = true;
    } finally {
      if (!done) {
        bucketFiles.rollBack();
      }
    }
    List<BucketRange> ranges = new ArrayList<>();
    for (Map.Entry<Path, Long> e : bucketFiles.lengthsBefore().entrySet()) {
      int bucket = OwnerPaths.bucketOf(e.getKey()).orElseThrow();
      if (counting.bytesPerBucket[bucket] > 0) {
        ranges.add(new BucketRange(bucket, Math.max(0, e.getValue()),
            counting.bytesPerBucket[bucket]));
      }
    }
    return new Appended(new ImportReport(target.toString(), counting.entries, counting.records,
        counting.inputBytes, counting.storedBytes, counting.bytesPerOwner,
        unsplittableEntries() - unsplittableBefore, (System.nanoTime() - start) / 1_000_000),
        List.copyOf(ranges));
  }

  /** Each opened bucket file grew by exactly the bytes queued for it, and is on its owner. */
  private void checkAppended(BucketFiles bucketFiles, Counting counting,
      KeyOwnership ownership) throws IOException {
    for (Map.Entry<Path, Long> e : bucketFiles.lengthsBefore().entrySet()) {
      int bucket = OwnerPaths.bucketOf(e.getKey()).orElseThrow();
      long expected = Math.max(0, e.getValue()) + counting.bytesPerBucket[bucket];
      long actual = fs.getFileStatus(e.getKey()).getLen();
      if (actual != expected) {
        throw new IOException(e.getKey() + " holds " + actual + " bytes after the append, "
            + expected + " expected; the append was rolled back");
      }
      String owner = ownership.ownerOfBucket(bucket);
      if (!OwnerReplicas.await(fs, e.getKey(), owner, OWNER_REPLICA_TIMEOUT_MS)) {
        throw new IOException("a block of " + e.getKey().getName() + " has no replica on its"
            + " owner " + owner + "; the DataNode failed during the append, which was rolled"
            + " back");
      }
    }
  }

  private static List<Path> inputFiles(FileSystem inputFs, Path input) throws IOException {
    FileStatus status;
    try {
      status = inputFs.getFileStatus(input);
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException("input " + inputFs.makeQualified(input)
          + " does not exist");
    }
    List<Path> files = new ArrayList<>();
    if (status.isFile()) {
      files.add(status.getPath());
    } else {
      for (FileStatus child : inputFs.listStatus(input)) {
        String name = child.getPath().getName();
        if (child.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
          files.add(child.getPath());
        }
      }
      files.sort(null);
    }
    if (files.isEmpty()) {
      throw new IOException("input " + inputFs.makeQualified(input) + " holds no files");
    }
    return files;
  }

  private long unsplittableEntries() {
    return hint instanceof GrepHint grep ? grep.unsplittableEntries() : 0;
  }

  /**
   * The sizing pass: bytes each bucket will hold, so owners can be chosen with bounded load
   * before the first byte is written. Costs one more read of the input through the hint.
   */
  private void measureBuckets(FileSystem inputFs, Path file, KeyOwnership ownership,
      long[] bucketBytes, long[] keyless) throws IOException {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(inputFs.open(file), StandardCharsets.UTF_8), 256 * 1024)) {
      String line;
      while ((line = in.readLine()) != null) {
        hint.split(line, (key, record) -> {
          int bucket = key == null ? (int) (keyless[0]++ % ownership.buckets())
              : ownership.bucketOf(key);
          bucketBytes[bucket] += record.getBytes(StandardCharsets.UTF_8).length + 1;
        });
      }
    }
  }

  private void readEntries(FileSystem inputFs, Path file, Counting counting) throws IOException {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(inputFs.open(file), StandardCharsets.UTF_8), 256 * 1024)) {
      String line;
      while ((line = in.readLine()) != null) {
        counting.entries++;
        counting.inputBytes += line.getBytes(StandardCharsets.UTF_8).length + 1;
        hint.split(line, counting);
        if (counting.ioError != null) {
          throw counting.ioError;
        }
        counting.maybeReport();
      }
    }
  }

  /**
   * Every owner must still be live (otherwise HDFS moved its first replicas elsewhere) and the
   * files must hold exactly the bytes queued.
   */
  private void checkComplete(Path staging, Counting counting,
      Map<String, InetSocketAddress> hostsAtStart) throws IOException {
    Map<String, InetSocketAddress> liveNow = LiveDataNodes.of(fs);
    for (String host : counting.bytesPerOwner.keySet()) {
      if (!liveNow.containsKey(host)) {
        throw new IOException("DataNode " + host + " left the cluster during the import, so"
            + " its buckets are not where the placement map says; nothing was imported, run"
            + " the import again");
      }
    }
    for (FileStatus dir : fs.listStatus(staging)) {
      String owner = OwnerPaths.ownerOf(dir.getPath().getName()).orElse(null);
      if (owner == null) {
        continue;
      }
      for (FileStatus file : fs.listStatus(dir.getPath())) {
        if (!OwnerReplicas.await(fs, file.getPath(), owner, OWNER_REPLICA_TIMEOUT_MS)) {
          throw new IOException("a block of " + file.getPath().getName() + " has no replica"
              + " on its owner " + owner + " " + OWNER_REPLICA_TIMEOUT_MS / 1000 + " s after it"
              + " was written; the DataNode failed during the import. Nothing was imported;"
              + " run the import again");
        }
      }
    }
    long stored = fs.getContentSummary(staging).getLength();
    if (stored != counting.storedBytes) {
      throw new IOException("import stored " + stored + " bytes but queued "
          + counting.storedBytes + "; nothing was imported");
    }
    LOG.info("Import complete: {} bytes on {} of {} hosts", stored,
        counting.bytesPerOwner.size(), hostsAtStart.size());
  }

  /** Routes records to buckets and counts what passes. */
  private final class Counting implements KeyHint.RecordSink {
    private final KeyOwnership ownership;
    private final Map<String, Long> bytesPerOwner = new TreeMap<>();
    private final long[] bytesPerBucket;
    private BucketSink sink;
    private IOException ioError;
    private long entries;
    private long inputBytes;
    private long records;
    private long storedBytes;
    private long keyless;
    private long lastReport = System.nanoTime();

    Counting(KeyOwnership ownership) {
      this.ownership = ownership;
      this.bytesPerBucket = new long[ownership.buckets()];
    }

    @Override
    public void accept(String key, String record) {
      if (record.indexOf('\n') >= 0 || record.indexOf('\r') >= 0) {
        throw new IllegalArgumentException("key hint " + hint.describe()
            + " produced a record with a line break");
      }
      int bucket = key == null ? (int) (keyless++ % ownership.buckets())
          : ownership.bucketOf(key);
      long bytes = record.getBytes(StandardCharsets.UTF_8).length + 1;
      String owner = ownership.ownerOfBucket(bucket);
      try {
        sink.add(bucket, record);
        bytesPerBucket[bucket] += bytes;
        observer.written(bucket, owner, bytesPerBucket[bucket]);
      } catch (IOException e) {
        ioError = e;
        return;
      }
      records++;
      storedBytes += bytes;
      bytesPerOwner.merge(owner, bytes, Long::sum);
    }

    void maybeReport() {
      long now = System.nanoTime();
      if (now - lastReport > 1_000_000_000L) {
        lastReport = now;
        progress.accept(new Progress(entries, inputBytes, records));
      }
    }
  }
}
