package org.locus.ndcoupling.fatbtree.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.ndcoupling.fatbtree.ChildPointer;
import org.locus.ndcoupling.fatbtree.IndexPage;
import org.locus.ndcoupling.fatbtree.LeafPage;
import org.locus.ndcoupling.fatbtree.NodeSet;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.SideLink;

class PageDirectoryTest {

  @TempDir
  Path dir;

  private static LeafPage leaf() {
    return new LeafPage(42, PathKey.of("/a"), PathKey.of("/b").subtreeEnd(), 3,
        new SideLink(43, NodeSet.of(1)),
        new PathKey[] {PathKey.of("/a"), PathKey.of("/a/ü"), PathKey.of("/b/c")},
        new int[] {1, 2, 3});
  }

  private static IndexPage index() {
    return new IndexPage(7, 2, null, PathKey.of("/m"), NodeSet.of(0, 2, 3), null,
        List.of(new ChildPointer(null, 8, NodeSet.of(0, 2)),
            new ChildPointer(PathKey.of("/g"), 9, NodeSet.of(3))));
  }

  @Test
  void readsBackEveryPageAfterReopening() throws IOException {
    PageDirectory store = PageDirectory.open(dir, true);
    store.put(leaf());
    store.put(index());
    PageStore reopened = PageDirectory.open(dir, true);
    assertEquals(leaf(), reopened.get(42));
    assertEquals(index(), reopened.get(7));
    assertEquals(2, reopened.size());
  }

  @Test
  void replacesAPageWithoutLeavingTemporaryFiles() throws IOException {
    PageDirectory store = PageDirectory.open(dir, true);
    store.put(leaf());
    store.put(leaf().withRemoved(PathKey.of("/a")));
    try (var files = Files.list(dir)) {
      assertEquals(List.of(store.fileOf(42)), files.toList());
    }
    assertEquals(2, PageDirectory.open(dir, true).get(42) instanceof LeafPage l ? l.size() : -1);
  }

  @Test
  void refusesACorruptedPageFileNamingIt() throws IOException {
    PageDirectory store = PageDirectory.open(dir, true);
    store.put(leaf());
    Path file = store.fileOf(42);
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 0x10;
    Files.write(file, bytes);
    CorruptPageException e = assertThrows(CorruptPageException.class,
        () -> PageDirectory.open(dir, true));
    assertEquals(file, e.file());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("checksum"), e.getMessage());
  }

  @Test
  void refusesATruncatedPageFile() throws IOException {
    PageDirectory store = PageDirectory.open(dir, true);
    store.put(index());
    Path file = store.fileOf(7);
    Files.write(file, new byte[] {'F', 'B'});
    CorruptPageException e = assertThrows(CorruptPageException.class,
        () -> PageDirectory.open(dir, true));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @Test
  void dropsAPageFile() throws IOException {
    PageDirectory store = PageDirectory.open(dir, true);
    store.put(leaf());
    store.remove(42);
    assertFalse(Files.exists(store.fileOf(42)));
    assertEquals(0, PageDirectory.open(dir, true).size());
  }
}
