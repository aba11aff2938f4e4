package org.locus.ndcoupling.fatbtree;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Copies of index pages a node holds no copy of, as other nodes answered them during its
 * descents, kept so that the next lookup through the same upper pages needs no message. Bounded
 * by page count; the least recently used copy goes first.
 *
 * <p>A cached copy is a copy read earlier, nothing more: the page may have split, gained or lost
 * children, or its children may have moved since. The descent uses it as a B-link reader uses
 * any copy (docs/ndcoupling.md, "Fat-Btree", concurrency protocol): a key at or past the high key
 * moves right, a leaf that is not where the copy says answers RETRY. What makes that safe is that
 * low keys never change and page ids are never reused, so an old version of a page can route a
 * key only to the page covering it or to a page left of it on the same level. {@link FatBtreeNode}
 * drops the copies a descent found stale and descends again without the cache.
 */
final class FetchedPageCache {

  private final int capacity;
  private final Map<Long, IndexPage> pages;

  /** @param capacity the most pages kept; 0 keeps none */
  FetchedPageCache(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("a page cache of " + capacity + " pages");
    }
    this.capacity = capacity;
    this.pages = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, IndexPage> eldest) {
        return size() > FetchedPageCache.this.capacity;
      }
    };
  }

  /** Whether the cache keeps anything at all. */
  boolean enabled() {
    return capacity > 0;
  }

  /** The cached copy of a page, or null. */
  synchronized IndexPage get(long pageId) {
    return pages.get(pageId);
  }

  /** Keeps a copy just read from another node, replacing an older one. */
  synchronized void put(IndexPage page) {
    if (capacity > 0) {
      pages.put(page.id(), page);
    }
  }

  /** Forgets a page's copy; whether there was one. */
  synchronized boolean remove(long pageId) {
    return pages.remove(pageId) != null;
  }

  /** The number of copies kept. */
  synchronized int size() {
    return pages.size();
  }

  int capacity() {
    return capacity;
  }
}
