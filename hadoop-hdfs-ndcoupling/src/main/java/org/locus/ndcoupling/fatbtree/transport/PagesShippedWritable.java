package org.locus.ndcoupling.fatbtree.transport;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.locus.ndcoupling.fatbtree.store.PagesShipped;

/**
 * {@link PagesShipped} on the wire: pages (int), bytes (long), whether the node file was sent
 * (boolean), milliseconds (long).
 */
public final class PagesShippedWritable implements Writable {

  private PagesShipped shipped;

  /** For the RPC engine, which fills it with {@link #readFields}. */
  public PagesShippedWritable() {
  }

  public PagesShippedWritable(PagesShipped shipped) {
    this.shipped = shipped;
  }

  public PagesShipped get() {
    return shipped;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeInt(shipped.pages());
    out.writeLong(shipped.bytes());
    out.writeBoolean(shipped.nodeFile());
    out.writeLong(shipped.millis());
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    shipped = new PagesShipped(in.readInt(), in.readLong(), in.readBoolean(), in.readLong());
  }
}
