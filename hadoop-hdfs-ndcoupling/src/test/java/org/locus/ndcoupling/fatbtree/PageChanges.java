package org.locus.ndcoupling.fatbtree;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.locus.ndcoupling.fatbtree.store.PageStore;

/** What step 1 should ship: the pages that differ between two states of a store. */
public final class PageChanges {
  private PageChanges() {
  }

  /** A store's pages by id, as they are now. */
  public static Map<Long, Page> pagesOf(PageStore store) {
    return store.all().stream().collect(Collectors.toMap(Page::id, p -> p));
  }

  /** The pages of {@code now} that differ from {@code before} (new, changed or gone). */
  public static List<Long> changed(Map<Long, Page> before, Map<Long, Page> now) {
    List<Long> out = new ArrayList<>();
    now.forEach((id, page) -> {
      if (!page.equals(before.get(id))) {
        out.add(id);
      }
    });
    before.keySet().stream().filter(id -> !now.containsKey(id)).forEach(out::add);
    return out;
  }
}
