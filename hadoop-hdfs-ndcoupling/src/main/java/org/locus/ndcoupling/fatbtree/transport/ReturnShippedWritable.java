package org.locus.ndcoupling.fatbtree.transport;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;

/**
 * {@link ReturnShipped} on the wire: the own pages' {@link PagesShippedWritable}, then the held
 * copy's.
 */
public final class ReturnShippedWritable implements Writable {

  private ReturnShipped shipped;

  /** For the RPC engine, which fills it with {@link #readFields}. */
  public ReturnShippedWritable() {
  }

  public ReturnShippedWritable(ReturnShipped shipped) {
    this.shipped = shipped;
  }

  public ReturnShipped get() {
    return shipped;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    new PagesShippedWritable(shipped.own()).write(out);
    new PagesShippedWritable(shipped.heldCopy()).write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    PagesShippedWritable own = new PagesShippedWritable();
    own.readFields(in);
    PagesShippedWritable held = new PagesShippedWritable();
    held.readFields(in);
    shipped = new ReturnShipped(own.get(), held.get());
  }
}
