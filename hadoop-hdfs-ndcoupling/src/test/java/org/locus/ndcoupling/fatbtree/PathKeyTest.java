package org.locus.ndcoupling.fatbtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class PathKeyTest {

  private static List<String> sorted(String... paths) {
    return Stream.of(paths).map(PathKey::of).sorted().map(PathKey::path)
        .collect(Collectors.toList());
  }

  @Test
  void ordersPathsComponentByComponent() {
    assertEquals(List.of("/", "/a", "/a/b", "/a/b/c", "/a/z", "/a!", "/a-b", "/a0", "/ab"),
        sorted("/ab", "/a0", "/a/z", "/a-b", "/a!", "/a/b/c", "/", "/a", "/a/b"));
  }

  @Test
  void keepsASubtreeInOneRange() {
    PathKey dir = PathKey.of("/user/alice");
    for (String p : List.of("/user/alice", "/user/alice/x", "/user/alice/x/y/z")) {
      PathKey k = PathKey.of(p);
      assertTrue(k.compareTo(dir) >= 0 && k.compareTo(dir.subtreeEnd()) < 0, p);
      assertTrue(dir.contains(k), p);
    }
    for (String p : List.of("/user/alicea", "/user/alice!", "/user/alic", "/user/b", "/user")) {
      PathKey k = PathKey.of(p);
      assertFalse(k.compareTo(dir) >= 0 && k.compareTo(dir.subtreeEnd()) < 0, p);
      assertFalse(dir.contains(k), p);
    }
  }

  @Test
  void normalisesSpellingsOfOnePath() {
    assertEquals(PathKey.of("/a/b"), PathKey.of("//a///b/"));
    assertEquals(PathKey.ROOT, PathKey.of("///"));
    assertEquals(2, PathKey.of("/a/b").depth());
  }

  @Test
  void refusesRelativePaths() {
    assertThrows(IllegalArgumentException.class, () -> PathKey.of("a/b"));
  }
}
