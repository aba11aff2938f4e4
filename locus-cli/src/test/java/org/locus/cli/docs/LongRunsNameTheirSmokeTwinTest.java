package org.locus.cli.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bench command a page shows runs at a smoke size somewhere (issue 44 item 7): a
 * {@code ```bash} block runs it ({@link DocumentedCommandsTest}), and a long run, shown in a
 * block that is not run ({@code ```text} or untyped), names its smoke twin. The paragraph
 * right before or right after such a block says "smoke twin", and every test class it names
 * there (a word ending in {@code Test}) is a test source of the repository. Usage lines
 * ({@code [--option]}) and {@code --help} lines run nothing and need no twin. A bench that no
 * test runs at a smoke size says so in the same place ("has no smoke twin yet"), which this test
 * accepts: the sentence records the gap where a reader of the long run sees it.
 */
class LongRunsNameTheirSmokeTwinTest {
  /** A line that runs a bench: the CLI's, zonectl's or MorphStore's scripts, the VM targets. */
  static final Pattern RUNS_A_BENCH = Pattern.compile("bin/locus bench\\b|zonectl/bench/"
      + "|morphstore-kmod/bench/|\\bmake\\b.*\\b(vm-bench|vm-powercut|vm-test)\\b");
  private static final Pattern USAGE = Pattern.compile("\\[-|--help\\b");
  private static final Pattern TEST_CLASS = Pattern.compile("\\b[A-Z][A-Za-z0-9]*Test\\b");

  @Test
  void everyLongBenchRunOfThePagesNamesItsSmokeTwin() throws IOException {
    List<String> longRuns = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Set<String> testSources = testSources(RepositoryDocs.root());
    for (File page : RepositoryDocs.pages()) {
      longRuns.addAll(longRuns(page));
      problems.addAll(problems(page, testSources));
    }
    assertFalse(longRuns.isEmpty(), "the pages show long bench runs in ```text blocks");
    assertTrue(problems.isEmpty(), "long bench runs without a smoke twin that exists:\n"
        + String.join("\n", problems));
  }

  @Test
  void aLongRunWithoutATwinIsFound(@TempDir File dir) throws IOException {
    File page = page(dir, "Measured so:", "", "```text",
        "bin/locus bench kat --cluster netns --size 32", "```", "", "It took an hour.");
    assertEquals(List.of("page.md:4: no \"smoke twin\" in the paragraph before or after the"
        + " block: bin/locus bench kat --cluster netns --size 32"), problems(page, Set.of()));
  }

  @Test
  void aTwinNamedAfterTheBlockOverALineBreakCounts(@TempDir File dir) throws IOException {
    File page = page(dir, "```", "make -s -C morphstore-kmod vm-powercut ROUNDS=50", "```",
        "A long run (an hour); its smoke", "twin is the bounded cut of `PowerCutTest`.");
    assertEquals(List.of(), problems(page, Set.of("PowerCutTest")));
  }

  @Test
  void aTwinClassThatDoesNotExistIsFound(@TempDir File dir) throws IOException {
    File page = page(dir, "A long run; its smoke twin is `GoneBenchTest`.", "```text",
        "zonectl/bench/hadoop --size 768M --runs 3", "```");
    assertEquals(List.of("page.md:3: smoke twin GoneBenchTest has no test source in the"
        + " repository"), problems(page, Set.of("PowerCutTest")));
  }

  @Test
  void usageAndHelpLinesAndBashBlocksNeedNoTwin(@TempDir File dir) throws IOException {
    File page = page(dir, "```text", "bin/locus bench energy [--out DIR]",
        "zonectl/bench/hadoop --help", "```", "", "```bash",
        "bin/locus bench spindown --hours 1", "```");
    assertEquals(List.of(), longRuns(page));
  }

  /** "PAGE:LINE: command" for each bench line of a block that is not run. */
  static List<String> longRuns(File page) throws IOException {
    List<String> runs = new ArrayList<>();
    for (RepositoryDocs.Block block : RepositoryDocs.blocks(page)) {
      if (block.language().equals("bash")) {
        continue;
      }
      String[] lines = block.text().split("\n");
      for (int i = 0; i < lines.length; i++) {
        if (RUNS_A_BENCH.matcher(lines[i]).find() && !USAGE.matcher(lines[i]).find()) {
          runs.add(page.getName() + ":" + (block.line() + 1 + i) + ": " + lines[i].strip());
        }
      }
    }
    return runs;
  }

  /**
   * @param testSources simple names of the repository's test classes
   * @return one line per long run without a twin, or with a twin class that does not exist
   */
  static List<String> problems(File page, Set<String> testSources) throws IOException {
    List<String> lines = Files.readAllLines(page.toPath());
    List<String> problems = new ArrayList<>();
    for (RepositoryDocs.Block block : RepositoryDocs.blocks(page)) {
      if (block.language().equals("bash")) {
        continue;
      }
      String[] text = block.text().split("\n");
      // block.line() is the opening fence's line number, its 0-based index plus one
      int opening = block.line() - 1;
      int closing = opening + (int) block.text().chars().filter(c -> c == '\n').count() + 1;
      List<String> twinParagraphs = Stream.of(paragraph(lines, opening, -1),
              paragraph(lines, closing, +1))
          .filter(p -> p.toLowerCase().contains("smoke twin")).toList();
      for (int i = 0; i < text.length; i++) {
        if (!RUNS_A_BENCH.matcher(text[i]).find() || USAGE.matcher(text[i]).find()) {
          continue;
        }
        String where = page.getName() + ":" + (block.line() + 1 + i);
        if (twinParagraphs.isEmpty()) {
          problems.add(where + ": no \"smoke twin\" in the paragraph before or after the block: "
              + text[i].strip());
        }
        for (String paragraph : twinParagraphs) {
          Matcher named = TEST_CLASS.matcher(paragraph);
          while (named.find()) {
            if (!testSources.contains(named.group())) {
              problems.add(where + ": smoke twin " + named.group()
                  + " has no test source in the repository");
            }
          }
        }
      }
    }
    return problems;
  }

  /**
   * The paragraph next to a fence: the non-blank lines from {@code fence + step} on (blank lines
   * right at the fence skipped) up to a blank line or another fence, joined by single spaces.
   */
  static String paragraph(List<String> lines, int fence, int step) {
    int i = fence + step;
    while (i >= 0 && i < lines.size() && lines.get(i).isBlank()) {
      i += step;
    }
    List<String> paragraph = new ArrayList<>();
    for (; i >= 0 && i < lines.size(); i += step) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("```")) {
        break;
      }
      paragraph.add(line);
    }
    if (step < 0) {
      Collections.reverse(paragraph);
    }
    return String.join(" ", paragraph).replaceAll("\\s+", " ");
  }

  /** Simple names of every {@code *Test.java} under a {@code src/test} directory. */
  static Set<String> testSources(File root) throws IOException {
    try (Stream<Path> files = Files.walk(root.toPath())) {
      return files.filter(p -> p.toString().contains("/src/test/")
              && p.getFileName().toString().endsWith("Test.java"))
          .map(p -> p.getFileName().toString().replaceAll("\\.java$", ""))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static File page(File dir, String... lines) throws IOException {
    File page = new File(dir, "page.md");
    Files.write(page.toPath(), List.of(lines));
    return page;
  }
}
