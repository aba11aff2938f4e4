package org.locus.ndcoupling.fatbtree;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.locus.ndcoupling.fatbtree.store.PageStore;

/**
 * Walks every page copy on every node of a quiescent Fat-Btree and reports what is wrong with
 * it. Checked:
 * <ul>
 *   <li>every node has the same root pointer and a copy of the root, and the root is on every
 *       node;</li>
 *   <li>every copy of a page is equal to the others, and a page's copy set is exactly the nodes
 *       holding it; a leaf is on exactly one node;</li>
 *   <li>S_parent ⊇ S_child for every pointer, and a pointer names exactly the child's nodes
 *       (seed 004 §4.2.2);</li>
 *   <li>levels descend by one; child ranges tile the parent's range; keys ascend within a leaf
 *       and lie in its [low, high), so every key is in exactly one leaf;</li>
 *   <li>on every level the right links and high keys chain the pages in key order (a leaf's
 *       link names the node its neighbour is on);</li>
 *   <li>no page is stored that the walk from the root does not reach.</li>
 * </ul>
 * With {@link NodeCopies}, {@link #verify(Collection, Map)} also checks that every node that is
 * on has a copy of each of its pages, equal to it, and of its root pointer, on its copy's
 * holder; S_i still names node ids, whichever incarnation answers for them.
 * Copies of an index page on nodes with nothing below it are allowed (S_i may exceed the union
 * of its children's sets after a split) and counted as surplus.
 */
public final class TreeVerifier {

  private final Map<Integer, Map<Long, Page>> copiesByNode = new TreeMap<>();
  private final Map<Integer, RootRef> roots = new TreeMap<>();
  private final Map<Long, NodeSet> holders = new HashMap<>();
  private final Map<Long, Page> canonical = new HashMap<>();
  private final List<String> problems = new ArrayList<>();
  private final Map<Integer, List<Page>> levels = new TreeMap<>();
  private final Set<Long> visited = new HashSet<>();
  private final Set<PathKey> keys = new HashSet<>();
  private int surplusCopies;

  private TreeVerifier() {
  }

  /** Verifies the tree formed by {@code nodes}, which must not change during the walk. */
  public static VerificationReport verify(Collection<FatBtreeNode> nodes) {
    TreeVerifier v = new TreeVerifier();
    for (FatBtreeNode node : nodes) {
      Map<Long, Page> pages = new HashMap<>();
      for (Page p : node.pageCopies()) {
        pages.put(p.id(), p);
      }
      v.copiesByNode.put(node.nodeId(), pages);
      v.roots.put(node.nodeId(), node.root());
    }
    return v.run();
  }

  /**
   * {@link #verify(Collection)}, and for each node in {@code copies} (the nodes that are on),
   * its copy holding exactly its pages, each equal, and its root pointer.
   */
  public static VerificationReport verify(Collection<FatBtreeNode> nodes,
      Map<Integer, PageStore> copies) {
    VerificationReport tree = verify(nodes);
    List<String> problems = new ArrayList<>(tree.problems());
    for (FatBtreeNode node : nodes) {
      PageStore copy = copies.get(node.nodeId());
      if (copy != null) {
        checkCopy(node, copy, problems);
      }
    }
    return new VerificationReport(List.copyOf(problems), tree.keys(), tree.pagesPerLevel(),
        tree.copies(), tree.surplusCopies());
  }

  private static void checkCopy(FatBtreeNode node, PageStore copy, List<String> problems) {
    Map<Long, Page> copied = new HashMap<>();
    for (Page p : copy.all()) {
      copied.put(p.id(), p);
    }
    for (Page p : node.pageCopies()) {
      Page c = copied.remove(p.id());
      if (c == null) {
        problems.add("node " + node.nodeId() + "'s " + p + " has no copy on "
            + copy.describe());
      } else if (!c.equals(p)) {
        problems.add("node " + node.nodeId() + "'s " + p + " differs from its copy " + c);
      }
    }
    for (Page stale : copied.values()) {
      problems.add(copy.describe() + " holds " + stale + ", which node " + node.nodeId()
          + " does not");
    }
    if (copy.nodeFile() == null || !copy.nodeFile().root().equals(node.root())) {
      problems.add("node " + node.nodeId() + " has root " + node.root() + " but its copy "
          + (copy.nodeFile() == null ? "has no node file" : copy.nodeFile().root()));
    }
  }

  private VerificationReport run() {
    collectCopies();
    RootRef root = checkRoots();
    if (root != null) {
      Page rootPage = canonical.get(root.pageId());
      if (rootPage.level() != root.level()) {
        problem("root page " + root.pageId() + " is at level " + rootPage.level()
            + " but the root pointer says " + root.level());
      }
      walk(rootPage, null, null, root.level());
      checkSideLinks();
      for (Long id : canonical.keySet()) {
        if (!visited.contains(id)) {
          problem("page " + canonical.get(id) + " is stored on " + holders.get(id)
              + " but not reachable from the root");
        }
      }
    }
    int copies = holders.values().stream().mapToInt(NodeSet::size).sum();
    Map<Integer, Integer> perLevel = new TreeMap<>();
    levels.forEach((level, pages) -> perLevel.put(level, pages.size()));
    return new VerificationReport(List.copyOf(problems), keys.size(), perLevel, copies,
        surplusCopies);
  }

  private void collectCopies() {
    copiesByNode.forEach((node, pages) -> pages.forEach((id, page) -> {
      holders.merge(id, NodeSet.of(node), NodeSet::union);
      Page first = canonical.putIfAbsent(id, page);
      if (first != null && !first.equals(page)) {
        problem("copies of page " + id + " differ: " + first + " vs " + page + " on node "
            + node);
      }
    }));
    holders.forEach((id, nodes) -> {
      Page page = canonical.get(id);
      if (!page.copies().equals(nodes)) {
        problem(page + " says its copies are on " + page.copies() + " but " + nodes
            + " hold it");
      }
      if (page instanceof LeafPage && nodes.size() != 1) {
        problem(page + " is on " + nodes + "; a leaf lives on exactly one node");
      }
    });
  }

  private RootRef checkRoots() {
    RootRef root = null;
    for (Map.Entry<Integer, RootRef> e : roots.entrySet()) {
      if (root == null) {
        root = e.getValue();
      } else if (!root.equals(e.getValue())) {
        problem("node " + e.getKey() + " has root " + e.getValue() + ", others " + root);
      }
    }
    if (root == null) {
      problem("no nodes");
      return null;
    }
    NodeSet all = NodeSet.of(new ArrayList<>(roots.keySet()));
    if (!canonical.containsKey(root.pageId())) {
      problem("no node holds the root page " + root.pageId());
      return null;
    }
    NodeSet rootHolders = holders.get(root.pageId());
    if (!rootHolders.equals(all)) {
      problem("the root is on " + rootHolders + ", not on every node " + all);
    }
    return root;
  }

  private void walk(Page page, PathKey low, PathKey high, int level) {
    if (!visited.add(page.id())) {
      problem(page + " is reached twice");
      return;
    }
    levels.computeIfAbsent(level, l -> new ArrayList<>()).add(page);
    if (page.level() != level) {
      problem(page + " is at level " + page.level() + " where " + level + " is expected");
    }
    if (!Objects.equals(page.lowKey(), low) || !Objects.equals(page.highKey(), high)) {
      problem(page + " covers [" + page.lowKey() + ", " + page.highKey() + ") but its parent"
          + " gives it [" + low + ", " + high + ")");
    }
    if (page instanceof LeafPage) {
      checkLeaf((LeafPage) page);
      return;
    }
    IndexPage index = (IndexPage) page;
    List<ChildPointer> children = index.children();
    if (!index.copies().containsAll(index.childNodes())) {
      problem(index + ": S_parent " + index.copies() + " does not contain its children's "
          + index.childNodes());
    }
    if (level != roots.values().iterator().next().level()) {
      for (int n : index.copies().toArray()) {
        if (!index.childNodes().contains(n)) {
          surplusCopies++;
        }
      }
    }
    if (!Objects.equals(children.get(0).lowKey(), page.lowKey())) {
      problem(index + ": first child starts at " + children.get(0).lowKey());
    }
    for (int i = 0; i < children.size(); i++) {
      ChildPointer c = children.get(i);
      if (i > 0 && children.get(i - 1).lowKey() != null
          && children.get(i - 1).lowKey().compareTo(c.lowKey()) >= 0) {
        problem(index + ": child low keys out of order at " + c.lowKey());
      }
      Page child = canonical.get(c.pageId());
      if (child == null) {
        problem(index + " points to page " + c.pageId() + " which no node holds");
        continue;
      }
      if (!c.nodes().equals(holders.get(c.pageId()))) {
        problem(index + " says child " + c.pageId() + " is on " + c.nodes() + " but it is on "
            + holders.get(c.pageId()));
      }
      PathKey childHigh = i + 1 < children.size() ? children.get(i + 1).lowKey() : high;
      walk(child, c.lowKey(), childHigh, level - 1);
    }
  }

  private void checkLeaf(LeafPage leaf) {
    for (int i = 0; i < leaf.size(); i++) {
      PathKey key = leaf.keyAt(i);
      if (i > 0 && leaf.keyAt(i - 1).compareTo(key) >= 0) {
        problem(leaf + ": keys out of order at " + key);
      }
      if (!leaf.covers(key)) {
        problem(leaf + " holds " + key + " outside its range");
      }
      if (!keys.add(key)) {
        problem("key " + key + " is in more than one leaf");
      }
    }
  }

  private void checkSideLinks() {
    levels.forEach((level, pages) -> {
      for (int i = 0; i < pages.size(); i++) {
        Page page = pages.get(i);
        if (i + 1 == pages.size()) {
          if (page.rightLink() != null || page.highKey() != null) {
            problem("rightmost " + page + " links to " + page.rightLink());
          }
          continue;
        }
        Page next = pages.get(i + 1);
        SideLink link = page.rightLink();
        if (link == null || link.pageId() != next.id()) {
          problem(page + " links to " + link + " but its right neighbour is " + next);
        } else if (level == 0 && !link.nodes().equals(next.copies())) {
          problem(page + " links to its neighbour on " + link.nodes() + " but it is on "
              + next.copies());
        }
        if (!Objects.equals(page.highKey(), next.lowKey())) {
          problem(page + " ends at " + page.highKey() + " but " + next + " starts at "
              + next.lowKey());
        }
      }
    });
  }

  private void problem(String text) {
    problems.add(text);
  }
}
