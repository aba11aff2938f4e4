package org.locus.cli.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which documented command blocks another block runs entirely: the README's one-minute
 * examples repeat the opening commands of their feature page's longer example. A block is
 * covered by another when its commands (comments and blank lines dropped, an end-of-line
 * comment cut at {@code " # "}) appear in that block in the same order, and that block has
 * more commands (or the same commands and comes first). Running the covering block runs every
 * command the covered one shows, in the same order, so {@link DocumentedBlockRuns} runs each
 * such pair once and checks the covered block by the covering one's result.
 */
final class CoveredBlocks {
  private CoveredBlocks() {
  }

  /** @return the block's commands as a reader types them, without comments */
  static List<String> commands(String text) {
    List<String> commands = new ArrayList<>();
    for (String line : text.split("\n")) {
      String command = line.strip();
      if (command.isEmpty() || command.startsWith("#")) {
        continue;
      }
      int comment = command.indexOf(" # ");
      if (comment >= 0) {
        command = command.substring(0, comment).strip();
      }
      commands.add(command.replaceAll("\\s+", " "));
    }
    return commands;
  }

  /** @return whether {@code part} appears in {@code whole} in the same order */
  static boolean inOrder(List<String> part, List<String> whole) {
    int at = 0;
    for (String command : whole) {
      if (at < part.size() && part.get(at).equals(command)) {
        at++;
      }
    }
    return at == part.size();
  }

  /**
   * @param blocks the blocks in reading order
   * @return each covered block (by index) with the index of the block that runs it, itself
   *     covered by none
   */
  static Map<Integer, Integer> coveredBy(List<String> blocks) {
    List<List<String>> commands = blocks.stream().map(CoveredBlocks::commands).toList();
    Map<Integer, Integer> covered = new LinkedHashMap<>();
    for (int a = 0; a < blocks.size(); a++) {
      Optional<Integer> by = cover(a, commands);
      if (by.isPresent()) {
        covered.put(a, by.get());
      }
    }
    return covered;
  }

  private static Optional<Integer> cover(int a, List<List<String>> commands) {
    List<String> mine = commands.get(a);
    if (mine.isEmpty()) {
      return Optional.empty();
    }
    for (int b = 0; b < commands.size(); b++) {
      List<String> other = commands.get(b);
      boolean larger = other.size() > mine.size() || (other.size() == mine.size() && b < a);
      if (b != a && larger && inOrder(mine, other) && cover(b, commands).isEmpty()) {
        return Optional.of(b);
      }
    }
    return Optional.empty();
  }
}
