package org.locus.ndcoupling.fatbtree.transport;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.locus.ndcoupling.fatbtree.PathKey;

/**
 * Index entries in key order on the wire: a count (int), then per entry the key's stored form
 * ({@link Text}) and the owner (int).
 */
public final class IndexEntriesWritable implements Writable {

  private List<IndexEntry> entries = List.of();

  /** For the RPC engine, which fills it with {@link #readFields}. */
  public IndexEntriesWritable() {
  }

  IndexEntriesWritable(List<IndexEntry> entries) {
    this.entries = List.copyOf(entries);
  }

  List<IndexEntry> get() {
    return entries;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeInt(entries.size());
    for (IndexEntry e : entries) {
      Text.writeString(out, e.key().path());
      out.writeInt(e.owner());
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      throw new IOException("negative Fat-Btree entry count " + n);
    }
    List<IndexEntry> read = new ArrayList<>(Math.min(n, 1 << 16));
    for (int i = 0; i < n; i++) {
      read.add(new IndexEntry(PathKey.fromStored(Text.readString(in)), in.readInt()));
    }
    entries = List.copyOf(read);
  }
}
