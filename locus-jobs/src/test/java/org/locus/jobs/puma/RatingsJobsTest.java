package org.locus.jobs.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.jobs.LocalJobFixture;

/**
 * The movie-ratings jobs (histogram-movies, histogram-ratings, classification, k-means) against
 * results computed here in plain Java. Two files of 60 movies rated by users 1..30; nobody
 * rates 2, so histogram-ratings must still print a zero line for it.
 */
class RatingsJobsTest {
  @TempDir
  static File tmp;
  private static LocalJobFixture jobs;
  private static File input;
  /** movies in input order (file name order, then line order): id, then user -> rating. */
  private static final List<Map.Entry<Long, Map<Long, Integer>>> MOVIES = new ArrayList<>();

  @BeforeAll
  static void writeRatings() throws IOException {
    jobs = new LocalJobFixture(tmp);
    input = jobs.directory("ratings");
    Random random = new Random(5);
    int[] values = {1, 3, 4, 5};
    long id = 100;
    for (String name : new String[] {"part-a", "part-b"}) {
      List<String> lines = new ArrayList<>();
      for (int m = 0; m < 60; m++) {
        Map<Long, Integer> ratings = new TreeMap<>();
        StringBuilder line = new StringBuilder().append(id).append(':');
        int count = 1 + random.nextInt(8);
        for (int r = 0; r < count; r++) {
          long user = 1 + random.nextInt(30);
          if (ratings.containsKey(user)) {
            continue;
          }
          int rating = values[random.nextInt(values.length)];
          ratings.put(user, rating);
          line.append(ratings.size() == 1 ? "" : ",").append(user).append('_').append(rating);
        }
        MOVIES.add(Map.entry(id, ratings));
        lines.add(line.toString());
        id += 1 + random.nextInt(3);
      }
      Files.write(new File(input, name).toPath(), lines, StandardCharsets.UTF_8);
    }
  }

  private static List<String> sorted(List<String> lines) {
    return lines.stream().sorted().collect(Collectors.toList());
  }

  @Test
  void histogramMoviesBinsAverageRatingsByHalfStars() throws Exception {
    Map<String, Integer> bins = new TreeMap<>();
    for (Map.Entry<Long, Map<Long, Integer>> movie : MOVIES) {
      double sum = movie.getValue().values().stream().mapToInt(Integer::intValue).sum();
      double average = sum / movie.getValue().size();
      bins.merge(String.format("%.1f", Math.floor(average * 2) / 2), 1, Integer::sum);
    }
    List<String> expected = new ArrayList<>();
    bins.forEach((bin, count) -> expected.add(bin + "\t" + count));
    assertEquals(expected, LocalJobFixture.lines(jobs.run("histogram-movies", input, 2)));
  }

  @Test
  void histogramRatingsCountsEveryRatingIncludingUnusedOnes() throws Exception {
    long[] counts = new long[6];
    MOVIES.forEach(movie -> movie.getValue().values().forEach(r -> counts[r]++));
    List<String> expected = new ArrayList<>();
    for (int r = 1; r <= 5; r++) {
      expected.add(r + "\t" + counts[r]);
    }
    assertEquals("2\t0", expected.get(1));
    assertEquals(expected, LocalJobFixture.lines(jobs.run("histogram-ratings", input, 2)));
  }

  @Test
  void classificationAssignsEachMovieToTheMostSimilarOfTheFirstMovies() throws Exception {
    List<Map<Long, Long>> centres = firstMovies(3);
    List<String> expected = new ArrayList<>();
    for (Map.Entry<Long, Map<Long, Integer>> movie : MOVIES) {
      expected.add(nearest(centres, movie.getValue()) + "\t" + movie.getKey());
    }
    assertEquals(sorted(expected),
        sorted(LocalJobFixture.lines(jobs.run("classification", input, 2, "clusters", "3"))));
  }

  @Test
  void kMeansRefinesCentresAsSumsOfMemberRatings() throws Exception {
    List<Map<Long, Long>> centres = firstMovies(3);
    for (int iteration = 0; iteration < 2; iteration++) {
      List<Map<Long, Long>> sums = new ArrayList<>();
      List<Boolean> hasMembers = new ArrayList<>();
      for (int c = 0; c < centres.size(); c++) {
        sums.add(new TreeMap<>());
        hasMembers.add(false);
      }
      for (Map.Entry<Long, Map<Long, Integer>> movie : MOVIES) {
        int c = nearest(centres, movie.getValue());
        hasMembers.set(c, true);
        movie.getValue().forEach((user, rating) -> sums.get(c).merge(user, (long) rating,
            Long::sum));
      }
      for (int c = 0; c < centres.size(); c++) {
        if (hasMembers.get(c)) {
          centres.set(c, sums.get(c));
        }
      }
    }
    List<String> expected = new ArrayList<>();
    for (Map.Entry<Long, Map<Long, Integer>> movie : MOVIES) {
      expected.add(nearest(centres, movie.getValue()) + "\t" + movie.getKey());
    }
    List<String> expectedCentres = new ArrayList<>();
    for (int c = 0; c < centres.size(); c++) {
      expectedCentres.add(c + ":" + new TreeMap<>(centres.get(c)).entrySet().stream()
          .map(e -> e.getKey() + "_" + e.getValue()).collect(Collectors.joining(",")));
    }
    File output = jobs.run("k-means", input, 2, "clusters", "3", "iterations", "2");
    assertEquals(sorted(expected), sorted(LocalJobFixture.lines(output)));
    assertEquals(expectedCentres, Files.readAllLines(new File(output, "centroids").toPath()));
  }

  private static List<Map<Long, Long>> firstMovies(int k) {
    List<Map<Long, Long>> centres = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      Map<Long, Long> centre = new HashMap<>();
      MOVIES.get(i).getValue().forEach((user, rating) -> centre.put(user, (long) rating));
      centres.add(centre);
    }
    return centres;
  }

  /** Cosine similarity, highest wins, lowest index on ties. */
  private static int nearest(List<Map<Long, Long>> centres, Map<Long, Integer> movie) {
    double movieNorm = Math.sqrt(movie.values().stream().mapToLong(r -> (long) r * r).sum());
    int best = 0;
    double bestSimilarity = -1;
    for (int c = 0; c < centres.size(); c++) {
      Map<Long, Long> centre = centres.get(c);
      double centreNorm = Math.sqrt(centre.values().stream().mapToLong(v -> v * v).sum());
      long dot = 0;
      for (Map.Entry<Long, Integer> rating : movie.entrySet()) {
        dot += centre.getOrDefault(rating.getKey(), 0L) * rating.getValue();
      }
      double similarity = centreNorm == 0 || movieNorm == 0 ? 0 : dot / (centreNorm * movieNorm);
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        best = c;
      }
    }
    return best;
  }
}
