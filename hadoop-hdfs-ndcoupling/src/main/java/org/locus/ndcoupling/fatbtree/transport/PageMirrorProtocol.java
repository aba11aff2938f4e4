package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.ipc.VersionedProtocol;

/**
 * Writes into a store a node keeps for another incarnation's pages (Hadoop RPC, Writable engine,
 * on the index server's port): the copy it holds of its ring predecessor while that node is on
 * (every page write of the node mirrored here before it is acknowledged), or its own store
 * while it is off and returning (step 1's pages, then every write of the copy serving for it).
 * docs/ndcoupling.md, "Fat-Btree copies over RPC".
 *
 * <p>{@code node} names whose pages the write is for. A node refuses a write for a store it
 * is serving from itself (that would change pages behind the incarnation using them), naming
 * the node and why. Pages are {@link org.locus.ndcoupling.fatbtree.store.PageCodec} bytes, the
 * node file {@link org.locus.ndcoupling.fatbtree.store.NodeFile} bytes, both checksummed.
 * Every call stores a value, so repeating one is harmless.
 */
public interface PageMirrorProtocol extends VersionedProtocol {
  long versionID = 1L;

  /** Stores (creates or replaces) a page in this node's store of {@code node}'s pages. */
  void mirrorPage(int node, BytesWritable page) throws IOException;

  /** Drops a page from this node's store of {@code node}'s pages. */
  void mirrorDrop(int node, long pageId) throws IOException;

  /** Replaces the node file in this node's store of {@code node}'s pages. */
  void mirrorNodeFile(int node, BytesWritable nodeFile) throws IOException;
}
