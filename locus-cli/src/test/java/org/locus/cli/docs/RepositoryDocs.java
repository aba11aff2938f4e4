package org.locus.cli.docs;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The repository's user documentation as the doc tests see it: {@code README.md} and
 * {@code docs/*.md}, and the fenced blocks in them. A block fenced as {@code ```bash} holds
 * commands a user types, run in order by {@link DocumentedBlockRuns}; any other fence
 * ({@code ```text}, {@code ```java}, ...) shows syntax, layouts or output and is not run.
 */
final class RepositoryDocs {
  /** One fenced block: where it starts and what it says. */
  record Block(File file, int line, String language, String text) {
    String name() {
      return file.getName() + ":" + line;
    }
  }

  private RepositoryDocs() {
  }

  /** The repository root: the parent of the module directory the tests run in. */
  static File root() {
    File root = new File("..").getAbsoluteFile().toPath().normalize().toFile();
    if (!new File(root, "README.md").isFile() || !new File(root, "docs").isDirectory()) {
      throw new IllegalStateException("tests must run in a module directory of the Locus"
          + " repository; " + root + " has no README.md and docs/");
    }
    return root;
  }

  /** README.md first, then docs/*.md by name. */
  static List<File> pages() {
    List<File> pages = new ArrayList<>();
    pages.add(new File(root(), "README.md"));
    File[] docs = new File(root(), "docs").listFiles((d, n) -> n.endsWith(".md"));
    Arrays.sort(docs);
    pages.addAll(Arrays.asList(docs));
    return pages;
  }

  /** Every fenced block of a page, in order. */
  static List<Block> blocks(File page) throws IOException {
    List<Block> blocks = new ArrayList<>();
    List<String> lines = Files.readAllLines(page.toPath());
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).trim();
      if (!line.startsWith("```")) {
        continue;
      }
      String language = line.substring(3).trim();
      StringBuilder text = new StringBuilder();
      int start = i + 1;
      for (i++; i < lines.size() && !lines.get(i).trim().startsWith("```"); i++) {
        text.append(lines.get(i)).append('\n');
      }
      blocks.add(new Block(page, start, language, text.toString()));
    }
    return blocks;
  }
}
