package org.locus.ndcoupling.fatbtree.store;

import java.util.Collection;
import org.locus.ndcoupling.fatbtree.Page;

/**
 * Where one node keeps its page copies and its {@link NodeFile}. Readers get the published
 * immutable page values; {@link #put} publishes a page only after it is stored, so a page a
 * reader has seen is as durable as the store. Callers serialise writes of one page id (the
 * page's latch); a store only makes each write atomic.
 *
 * <p>{@link PageDirectory} is the durable store a node runs on; {@link MemoryPageStore} keeps
 * pages only in memory, for tests of the tree's logic that should not pay for file I/O.
 */
public interface PageStore {

  /** The local copy of a page, or null. */
  Page get(long id);

  /** Every page copy held here. */
  Collection<Page> all();

  /** How many page copies are held here. */
  int size();

  /** Stores (creates or replaces) a page copy, then publishes it to readers. */
  void put(Page page);

  /** Withdraws a copy from readers, then forgets it. */
  void remove(long id);

  /** The node's own state, or null if the store was never formatted. */
  NodeFile nodeFile();

  /** Replaces the node's own state. */
  void putNodeFile(NodeFile file);

  /** Where the store is, for messages. */
  String describe();
}
