package org.locus.jobs.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.jobs.LocalJobFixture;

/** adjacency-list and self-join against results computed here in plain Java. */
class GraphJobsTest {
  @TempDir
  static File tmp;
  private static LocalJobFixture jobs;

  @BeforeAll
  static void fixture() {
    jobs = new LocalJobFixture(tmp);
  }

  private static List<String> sorted(List<String> lines) {
    return lines.stream().sorted().collect(Collectors.toList());
  }

  @Test
  void adjacencyListGivesSortedInAndOutNeighbours() throws Exception {
    File input = jobs.directory("edges");
    Random random = new Random(3);
    List<String> edges = new ArrayList<>();
    Map<Long, TreeSet<Long>> in = new TreeMap<>();
    Map<Long, TreeSet<Long>> out = new TreeMap<>();
    for (int i = 0; i < 400; i++) {
      long src = random.nextInt(40);
      long dst = random.nextInt(40);
      edges.add(src + "\t" + dst);
      out.computeIfAbsent(src, k -> new TreeSet<>()).add(dst);
      in.computeIfAbsent(dst, k -> new TreeSet<>()).add(src);
      out.computeIfAbsent(dst, k -> new TreeSet<>());
      in.computeIfAbsent(src, k -> new TreeSet<>());
    }
    Files.write(new File(input, "edges.tsv").toPath(), edges, StandardCharsets.UTF_8);
    List<String> expected = new ArrayList<>();
    out.keySet().forEach(node -> expected.add(node + "\tin=" + join(in.get(node)) + ";out="
        + join(out.get(node))));
    assertEquals(sorted(expected),
        sorted(LocalJobFixture.lines(jobs.run("adjacency-list", input, 2))));
  }

  private static String join(TreeSet<Long> ids) {
    return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
  }

  @Test
  void selfJoinPairsItemsetsSharingAllButTheLastElement() throws Exception {
    File input = jobs.directory("itemsets");
    Random random = new Random(8);
    List<String> lines = new ArrayList<>();
    Map<String, TreeSet<Long>> lastsByPrefix = new TreeMap<>();
    for (int i = 0; i < 300; i++) {
      TreeSet<Long> items = new TreeSet<>();
      while (items.size() < 3) {
        items.add((long) 1 + random.nextInt(12));
      }
      List<Long> list = new ArrayList<>(items);
      lines.add(list.get(0) + "," + list.get(1) + "," + list.get(2));
      lastsByPrefix.computeIfAbsent(list.get(0) + "," + list.get(1), k -> new TreeSet<>())
          .add(list.get(2));
    }
    Files.write(new File(input, "sets").toPath(), lines, StandardCharsets.UTF_8);
    List<String> expected = new ArrayList<>();
    lastsByPrefix.forEach((prefix, lasts) -> {
      List<Long> l = new ArrayList<>(lasts);
      for (int a = 0; a < l.size(); a++) {
        for (int b = a + 1; b < l.size(); b++) {
          expected.add(prefix + "," + l.get(a) + "," + l.get(b));
        }
      }
    });
    assertEquals(sorted(expected), sorted(LocalJobFixture.lines(jobs.run("self-join", input,
        2))));
  }
}
