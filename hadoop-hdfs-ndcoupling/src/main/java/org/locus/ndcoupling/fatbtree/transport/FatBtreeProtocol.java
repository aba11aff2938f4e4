package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.ipc.VersionedProtocol;

/**
 * {@link org.locus.ndcoupling.fatbtree.IndexPeer} on the wire: what one Fat-Btree node asks
 * another over Hadoop RPC (Writable engine; protobuf code generation is not part of this build).
 * One method per {@code IndexPeer} method, with the same meaning. Encodings:
 *
 * <ul>
 *   <li>a page is its {@link org.locus.ndcoupling.fatbtree.store.PageCodec} bytes (the page
 *       file's format, CRC32C included); no page is zero bytes;</li>
 *   <li>a key is its stored path string ({@code PathKey.path()});</li>
 *   <li>the pages a descent passed are a {@link PagePathWritable} (a count, then each page's
 *       bytes);</li>
 *   <li>a leaf reply is a {@link LeafReplyWritable}, a root pointer a {@link RootRefWritable}.</li>
 * </ul>
 *
 * <p>Any failure on the serving node crosses as an IOException naming that node.
 */
public interface FatBtreeProtocol extends VersionedProtocol {
  long versionID = 2L;

  int nodeId() throws IOException;

  BytesWritable fetchPage(long pageId) throws IOException;

  PagePathWritable descendLocally(long pageId, String key, int level) throws IOException;

  LeafReplyWritable lookupInLeaf(long leafId, String key) throws IOException;

  LeafReplyWritable updateInLeaf(long leafId, String key, int owner, boolean remove)
      throws IOException;

  LeafReplyWritable splitLeafAt(long leafId, String key) throws IOException;

  LeafReplyWritable migrateLeaf(long leafId, int target) throws IOException;

  void latchPage(long pageId) throws IOException;

  void releasePage(long pageId) throws IOException;

  void storePage(BytesWritable page) throws IOException;

  void dropPage(long pageId) throws IOException;

  RootRefWritable root() throws IOException;

  void setRoot(RootRefWritable root) throws IOException;
}
