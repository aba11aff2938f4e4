package org.locus.bench.suite;

import java.util.Map;

/**
 * One job of a suite.
 *
 * @param id the job's name in results, unique in the suite, e.g. {@code terasort}
 * @param job the catalog job to run ({@code locus job NAME})
 * @param input what it reads: a generated kind ({@code kind:text}), an earlier job's output
 *     in the same run ({@code job:terasort}) or nothing ({@code none})
 * @param inputBytes size of a generated input
 * @param options the job's options
 */
public record BenchJob(String id, String job, String input, long inputBytes,
    Map<String, String> options) {
  public static BenchJob generated(String id, String kind, long bytes, String... options) {
    return new BenchJob(id, id, "kind:" + kind, bytes, pairs(options));
  }

  static Map<String, String> pairs(String... options) {
    java.util.LinkedHashMap<String, String> map = new java.util.LinkedHashMap<>();
    for (int i = 0; i < options.length; i += 2) {
      map.put(options[i], options[i + 1]);
    }
    return map;
  }
}
