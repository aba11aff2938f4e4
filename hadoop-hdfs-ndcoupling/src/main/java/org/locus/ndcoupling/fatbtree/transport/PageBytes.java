package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.io.BytesWritable;
import org.locus.ndcoupling.fatbtree.Page;
import org.locus.ndcoupling.fatbtree.store.PageCodec;

/**
 * Pages on the wire: the page file's own encoding ({@link PageCodec}), so a page crossing the
 * network is checked by the same CRC32C as a page read from disk; zero bytes for "no page".
 */
final class PageBytes {

  private PageBytes() {
  }

  static BytesWritable encode(Page page) {
    return page == null ? new BytesWritable() : new BytesWritable(PageCodec.encode(page));
  }

  /**
   * @param source named in the error if the bytes are damaged
   */
  static Page decode(BytesWritable bytes, String source) throws IOException {
    if (bytes.getLength() == 0) {
      return null;
    }
    return PageCodec.decode(bytes.copyBytes(), Path.of(source));
  }
}
