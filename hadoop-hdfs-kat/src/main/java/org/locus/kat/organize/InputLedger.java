package org.locus.kat.organize;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.kat.ingest.BucketRange;
import org.locus.kat.placement.OwnerPaths;

/**
 * Which bytes of which bucket files each organized input contributed: the provenance that lets
 * a deleted or rewritten input be taken back out of a dataset (seed 000 §3.4's redistribution
 * on data updates). One line per input file organized by {@link DatasetOrganizer}, in
 * {@code DATASET/_kat/inputs}:
 *
 * <pre>
 *   NAME &lt;TAB&gt; INODE-ID &lt;TAB&gt; BUCKET:OFFSET+LENGTH,BUCKET:OFFSET+LENGTH,...
 * </pre>
 *
 * NAME is URL-encoded; INODE-ID is the HDFS inode of the input file that stays behind, emptied,
 * as the input's handle (a rewrite gives the name a new inode). Records imported by
 * {@code kat import} have no line: they belong to no input the organizer saw.
 */
public final class InputLedger {
  static final String FILE = "inputs";

  /** One organized input: its handle's inode and the ranges its records occupy. */
  public record Entry(long inodeId, List<BucketRange> ranges) {
    public long bytes() {
      return ranges.stream().mapToLong(BucketRange::length).sum();
    }
  }

  private final Map<String, Entry> entries;

  private InputLedger(Map<String, Entry> entries) {
    this.entries = entries;
  }

  public static Path file(Path dataset) {
    return new Path(new Path(dataset, OwnerPaths.META_DIR), FILE);
  }

  /** @return the dataset's ledger; empty when nothing was organized into it yet */
  public static InputLedger read(FileSystem fs, Path dataset) throws IOException {
    Path file = file(dataset);
    Map<String, Entry> entries = new TreeMap<>();
    if (!fs.exists(file)) {
      return new InputLedger(entries);
    }
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = in.readLine()) != null) {
        number++;
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        try {
          String[] fields = line.split("\t", -1);
          if (fields.length != 3) {
            throw new IllegalArgumentException("3 tab-separated fields expected");
          }
          List<BucketRange> ranges = new ArrayList<>();
          for (String range : fields[2].isEmpty() ? new String[0] : fields[2].split(",")) {
            ranges.add(BucketRange.parse(range));
          }
          entries.put(URLDecoder.decode(fields[0], StandardCharsets.UTF_8),
              new Entry(Long.parseLong(fields[1]), List.copyOf(ranges)));
        } catch (IllegalArgumentException e) {
          throw new IOException(file + " line " + number + " is malformed (" + e.getMessage()
              + "): " + line, e);
        }
      }
    }
    return new InputLedger(entries);
  }

  /** Replaces the ledger file in one rename. */
  public void write(DistributedFileSystem fs, Path dataset) throws IOException {
    Path file = file(dataset);
    Path tmp = new Path(file.getParent(), "." + FILE + ".tmp");
    try (OutputStream raw = fs.create(tmp, true);
         PrintWriter out = new PrintWriter(new OutputStreamWriter(raw, StandardCharsets.UTF_8))) {
      out.println("# KAT inputs organized into this dataset: name, inode id, bucket ranges");
      for (Map.Entry<String, Entry> e : entries.entrySet()) {
        StringBuilder ranges = new StringBuilder();
        for (BucketRange range : e.getValue().ranges()) {
          ranges.append(ranges.length() == 0 ? "" : ",").append(range);
        }
        out.println(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "\t"
            + e.getValue().inodeId() + "\t" + ranges);
      }
      if (out.checkError()) {
        throw new IOException("could not write " + tmp);
      }
    }
    fs.rename(tmp, file, Options.Rename.OVERWRITE);
  }

  public Set<String> names() {
    return entries.keySet();
  }

  /** @return the input's entry, or null if the organizer never saw it */
  public Entry get(String name) {
    return entries.get(name);
  }

  /** Records that input {@code name} (inode {@code inodeId}) added {@code ranges}. */
  public void add(String name, long inodeId, Collection<BucketRange> ranges) {
    Entry old = entries.get(name);
    List<BucketRange> all = new ArrayList<>();
    if (old != null && old.inodeId() == inodeId) {
      all.addAll(old.ranges());
    }
    all.addAll(ranges);
    entries.put(name, new Entry(inodeId, List.copyOf(all)));
  }

  /**
   * Forgets the inputs {@code names} after their ranges were cut out of the bucket files: every
   * other input's range behind a cut one in the same bucket moves forward by the bytes cut.
   *
   * @return the ranges cut, which the caller removes from the bucket files
   */
  public List<BucketRange> remove(Collection<String> names) {
    List<BucketRange> cut = new ArrayList<>();
    for (String name : names) {
      Entry entry = entries.remove(name);
      if (entry != null) {
        cut.addAll(entry.ranges());
      }
    }
    for (Map.Entry<String, Entry> e : entries.entrySet()) {
      List<BucketRange> moved = new ArrayList<>();
      for (BucketRange range : e.getValue().ranges()) {
        long before = 0;
        for (BucketRange gone : cut) {
          if (gone.bucket() == range.bucket() && gone.offset() < range.offset()) {
            before += gone.length();
          }
        }
        moved.add(new BucketRange(range.bucket(), range.offset() - before, range.length()));
      }
      e.setValue(new Entry(e.getValue().inodeId(), List.copyOf(moved)));
    }
    return cut;
  }
}
