package org.locus.jobs.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.jobs.LocalJobFixture;

/**
 * The text-corpus jobs (wordcount, grep, inverted-index, term-vector, sequence-count,
 * ranked-inverted-index) against the same results computed here in plain Java from the input
 * files. Three small files with mixed case, tabs and repeated spaces; two reducers.
 */
class TextJobsTest {
  @TempDir
  static File tmp;
  private static LocalJobFixture jobs;
  private static File input;
  /** file name, then its lines. */
  private static final Map<String, List<String>> FILES = new TreeMap<>();

  @BeforeAll
  static void writeCorpus() throws IOException {
    jobs = new LocalJobFixture(tmp);
    input = jobs.directory("corpus");
    String[] vocabulary = {"ax1", "ax2", "bx3", "Ax1", "cat", "dog", "the", "The", "a", "zz9"};
    Random random = new Random(11);
    for (String name : new String[] {"alpha.txt", "beta.txt", "gamma.txt"}) {
      List<String> lines = new ArrayList<>();
      for (int l = 0; l < 150; l++) {
        StringBuilder line = new StringBuilder();
        int words = random.nextInt(7);
        for (int w = 0; w < words; w++) {
          line.append(random.nextInt(5) == 0 ? "\t  " : " ");
          // gamma.txt uses only half the vocabulary, so word-to-file lists differ
          int bound = name.startsWith("gamma") ? 5 : vocabulary.length;
          line.append(vocabulary[(int) Math.floor(Math.pow(random.nextDouble(), 2) * bound)]);
        }
        lines.add(line.toString());
      }
      FILES.put(name, lines);
      Files.write(new File(input, name).toPath(), lines, StandardCharsets.UTF_8);
    }
  }

  private static String[] words(String line) {
    String trimmed = line.trim();
    return trimmed.isEmpty() ? new String[0] : trimmed.split("[ \t]+");
  }

  private static List<String> sorted(List<String> lines) {
    return lines.stream().sorted().collect(Collectors.toList());
  }

  @Test
  void wordcountCountsEveryToken() throws Exception {
    Map<String, Integer> counts = new TreeMap<>();
    FILES.values().forEach(lines -> lines.forEach(line -> {
      for (String w : words(line)) {
        counts.merge(w, 1, Integer::sum);
      }
    }));
    List<String> expected = new ArrayList<>();
    counts.forEach((w, c) -> expected.add(w + "\t" + c));
    assertEquals(sorted(expected), sorted(LocalJobFixture.lines(jobs.run("wordcount", input, 2))));
  }

  @Test
  void grepListsMatchesMostFrequentFirst() throws Exception {
    Pattern pattern = Pattern.compile("[ab]x\\d");
    Map<String, Long> counts = new HashMap<>();
    FILES.values().forEach(lines -> lines.forEach(line -> {
      Matcher m = pattern.matcher(line);
      while (m.find()) {
        counts.merge(m.group(), 1L, Long::sum);
      }
    }));
    List<String> expected = counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()
            .thenComparing(Map.Entry.comparingByKey()))
        .map(e -> e.getValue() + "\t" + e.getKey()).collect(Collectors.toList());
    assertEquals(expected, LocalJobFixture.lines(jobs.run("grep", input, 2, "regex",
        "[ab]x\\d")));
  }

  @Test
  void invertedIndexListsTheSortedFilesOfEveryWord() throws Exception {
    Map<String, TreeSet<String>> index = new TreeMap<>();
    FILES.forEach((file, lines) -> lines.forEach(line -> {
      for (String w : words(line)) {
        index.computeIfAbsent(w, k -> new TreeSet<>()).add(file);
      }
    }));
    List<String> expected = new ArrayList<>();
    index.forEach((w, files) -> expected.add(w + "\t" + String.join(",", files)));
    assertEquals(sorted(expected),
        sorted(LocalJobFixture.lines(jobs.run("inverted-index", input, 2))));
  }

  @Test
  void termVectorKeepsTheTopWordsOfEachFile() throws Exception {
    List<String> expected = new ArrayList<>();
    FILES.forEach((file, lines) -> {
      Map<String, Integer> counts = new HashMap<>();
      lines.forEach(line -> {
        for (String w : words(line)) {
          counts.merge(w, 1, Integer::sum);
        }
      });
      expected.add(file + "\t" + counts.entrySet().stream()
          .sorted(Comparator.comparing((Map.Entry<String, Integer> e) -> -e.getValue())
              .thenComparing(Map.Entry::getKey))
          .limit(3).map(e -> e.getKey() + ":" + e.getValue())
          .collect(Collectors.joining(",")));
    });
    assertEquals(sorted(expected),
        sorted(LocalJobFixture.lines(jobs.run("term-vector", input, 2, "top", "3"))));
  }

  @Test
  void sequenceCountCountsThreeWordSequencesWithinLines() throws Exception {
    Map<String, Integer> counts = new TreeMap<>();
    FILES.values().forEach(lines -> lines.forEach(line -> {
      String[] w = words(line);
      for (int i = 0; i + 2 < w.length; i++) {
        counts.merge(w[i] + " " + w[i + 1] + " " + w[i + 2], 1, Integer::sum);
      }
    }));
    List<String> expected = new ArrayList<>();
    counts.forEach((s, c) -> expected.add(s + "\t" + c));
    assertEquals(sorted(expected),
        sorted(LocalJobFixture.lines(jobs.run("sequence-count", input, 2))));
  }

  @Test
  void rankedInvertedIndexRanksFilesByCount() throws Exception {
    Map<String, Map<String, Integer>> counts = new TreeMap<>();
    FILES.forEach((file, lines) -> lines.forEach(line -> {
      for (String w : words(line)) {
        counts.computeIfAbsent(w, k -> new TreeMap<>()).merge(file, 1, Integer::sum);
      }
    }));
    List<String> expected = new ArrayList<>();
    counts.forEach((w, perFile) -> expected.add(w + "\t" + perFile.entrySet().stream()
        .sorted(Comparator.comparing((Map.Entry<String, Integer> e) -> -e.getValue())
            .thenComparing(Map.Entry::getKey))
        .map(e -> e.getValue() + ":" + e.getKey()).collect(Collectors.joining(","))));
    assertEquals(sorted(expected),
        sorted(LocalJobFixture.lines(jobs.run("ranked-inverted-index", input, 2))));
  }
}
