package org.locus.ndcoupling.fatbtree.transport;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Writable;
import org.locus.ndcoupling.fatbtree.Page;
import org.locus.ndcoupling.fatbtree.store.PageCodec;

/**
 * The pages one descent passed on the answering node, in the order it passed them, on the wire:
 * a count (int), then each page's {@link PageCodec} bytes as a {@link BytesWritable}. The pages
 * are decoded (and their CRC32C checked) by the asker, in {@link #decode}.
 */
public final class PagePathWritable implements Writable {

  /** More pages than any descent passes: a count above it is a damaged message. */
  private static final int MAX_PAGES = 1 << 16;

  private List<BytesWritable> pages = List.of();

  /** For the RPC engine, which fills it with {@link #readFields}. */
  public PagePathWritable() {
  }

  PagePathWritable(List<Page> path) {
    List<BytesWritable> encoded = new ArrayList<>(path.size());
    for (Page page : path) {
      encoded.add(new BytesWritable(PageCodec.encode(page)));
    }
    this.pages = encoded;
  }

  /** The pages, checked as page files are; {@code source} is named if one is damaged. */
  List<Page> decode(String source) throws IOException {
    List<Page> out = new ArrayList<>(pages.size());
    for (BytesWritable bytes : pages) {
      out.add(PageCodec.decode(bytes.copyBytes(), Path.of(source)));
    }
    return out;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeInt(pages.size());
    for (BytesWritable page : pages) {
      page.write(out);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_PAGES) {
      throw new IOException("a Fat-Btree descent of " + n + " pages");
    }
    List<BytesWritable> read = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      BytesWritable page = new BytesWritable();
      page.readFields(in);
      read.add(page);
    }
    pages = read;
  }
}
