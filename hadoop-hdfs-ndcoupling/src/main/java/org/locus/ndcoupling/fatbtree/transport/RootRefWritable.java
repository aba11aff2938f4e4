package org.locus.ndcoupling.fatbtree.transport;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.locus.ndcoupling.fatbtree.RootRef;

/** A {@link RootRef} on the wire: the root page's id (long) and level (int). */
public final class RootRefWritable implements Writable {

  private RootRef root;

  /** For the RPC engine, which fills it with {@link #readFields}. */
  public RootRefWritable() {
  }

  RootRefWritable(RootRef root) {
    this.root = root;
  }

  RootRef get() {
    return root;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeLong(root.pageId());
    out.writeInt(root.level());
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    root = new RootRef(in.readLong(), in.readInt());
  }
}
