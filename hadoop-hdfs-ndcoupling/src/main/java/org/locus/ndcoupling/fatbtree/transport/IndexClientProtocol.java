package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import org.apache.hadoop.ipc.VersionedProtocol;

/**
 * What a client asks the Fat-Btree node it talks to (Hadoop RPC, Writable engine, on the same
 * server as {@link FatBtreeProtocol}): the operations that start at a node, which then descends
 * and forwards as the tree requires. Paths are absolute; they are normalised as
 * {@link org.locus.ndcoupling.fatbtree.PathKey#of} does. Failures cross as IOExceptions naming
 * the node.
 */
public interface IndexClientProtocol extends VersionedProtocol {
  long versionID = 1L;

  /** The answer of {@link #lookup} and {@link #put} when the path was not in the index. */
  long NO_OWNER = Long.MIN_VALUE;

  /** The owner {@code path} maps to, or {@link #NO_OWNER}. */
  long lookup(String path) throws IOException;

  /** Maps {@code path} to {@code owner}; the previous owner, or {@link #NO_OWNER}. */
  long put(String path, int owner) throws IOException;

  /** Removes {@code path}; whether it was there. */
  boolean remove(String path) throws IOException;

  /** The node holding the leaf that covers {@code path}. */
  int leafNodeOf(String path) throws IOException;

  /**
   * Every entry of {@code dir}'s subtree, {@code dir} itself included, in key order, read leaf
   * by leaf along the right links (so a directory's entries come back merged in name order
   * whichever nodes their leaves are on).
   */
  IndexEntriesWritable scanSubtree(String dir) throws IOException;

  /** Moves the leaves of {@code dir}'s subtree to node {@code target} (subtree migration). */
  void moveSubtree(String dir, int target) throws IOException;
}
