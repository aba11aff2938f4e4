package org.locus.ndcoupling.fatbtree.transport;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.locus.ndcoupling.fatbtree.LeafReply;

/** A {@link LeafReply} on the wire: one byte of status (the enum's ordinal), one long. */
public final class LeafReplyWritable implements Writable {

  private LeafReply reply;

  /** For the RPC engine, which fills it with {@link #readFields}. */
  public LeafReplyWritable() {
  }

  LeafReplyWritable(LeafReply reply) {
    this.reply = reply;
  }

  LeafReply get() {
    return reply;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(reply.status().ordinal());
    out.writeLong(reply.value());
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    int status = in.readByte();
    LeafReply.Status[] all = LeafReply.Status.values();
    if (status < 0 || status >= all.length) {
      throw new IOException("unknown Fat-Btree leaf reply status " + status);
    }
    reply = new LeafReply(all[status], in.readLong());
  }
}
