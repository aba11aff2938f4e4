package org.locus.ndcoupling.fatbtree.store;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.locus.ndcoupling.fatbtree.Page;

/**
 * Page copies kept only in memory: a {@link PageStore} for tests of the tree's logic. A node
 * reopened on the same object behaves like a restart without the disk.
 */
public final class MemoryPageStore implements PageStore {

  private final Map<Long, Page> pages = new ConcurrentHashMap<>();
  private final String name;
  private volatile NodeFile node;

  public MemoryPageStore(String name) {
    this.name = name;
  }

  @Override
  public Page get(long id) {
    return pages.get(id);
  }

  @Override
  public Collection<Page> all() {
    return List.copyOf(pages.values());
  }

  @Override
  public int size() {
    return pages.size();
  }

  @Override
  public void put(Page page) {
    pages.put(page.id(), page);
  }

  @Override
  public void remove(long id) {
    pages.remove(id);
  }

  @Override
  public NodeFile nodeFile() {
    return node;
  }

  @Override
  public void putNodeFile(NodeFile file) {
    node = file;
  }

  @Override
  public String describe() {
    return "memory store " + name;
  }
}
