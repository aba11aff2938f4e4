package org.locus.cli.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The two classes that run the documented blocks run side by side, each in its own fork (one
 * takes the blocks that start netns clusters, the other the rest, by construction of
 * {@link DocumentedBlockRuns}): no {@code /tmp} entry a reader types appears in blocks of both,
 * so neither run touches the other's clusters or files.
 */
class DocumentedBlockGroupsTest {
  private static final Pattern TMP_ENTRY = Pattern.compile("/tmp/[A-Za-z0-9._-]+");

  @Test
  void noDirectoryIsSharedByTheTwoRuns() throws Exception {
    Map<String, Set<String>> plainEntries = new TreeMap<>();
    Map<String, Set<String>> netnsEntries = new TreeMap<>();
    List<RepositoryDocs.Block> blocks = DocumentedBlockRuns.bashBlocks();
    for (RepositoryDocs.Block block : blocks) {
      Map<String, Set<String>> into = DocumentedBlockRuns.startsNetns(block) ? netnsEntries
          : plainEntries;
      Matcher m = TMP_ENTRY.matcher(block.text());
      while (m.find()) {
        into.computeIfAbsent(m.group(), k -> new TreeSet<>()).add(block.name());
      }
    }
    assertFalse(netnsEntries.isEmpty(), "the netns blocks type /tmp directories");
    Set<String> shared = new TreeSet<>(plainEntries.keySet());
    shared.retainAll(netnsEntries.keySet());
    Map<String, String> where = new TreeMap<>();
    for (String entry : shared) {
      where.put(entry, plainEntries.get(entry) + " and " + netnsEntries.get(entry));
    }
    assertEquals(Map.of(), where, "/tmp entries typed in blocks of both runs");
  }
}
