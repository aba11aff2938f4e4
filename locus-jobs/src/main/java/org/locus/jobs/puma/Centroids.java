package org.locus.jobs.puma;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Cluster centres for classification and k-means over movie ratings, and the cosine similarity
 * that assigns a movie to one. A centre is a vector over users; it is stored as the per-user
 * <em>sum</em> of its members' ratings, a whole number, because cosine similarity does not
 * change when a vector is scaled: the sum points where the mean points, and integer sums keep
 * every run's arithmetic exact up to the final division.
 *
 * <p>File format: one line per centre, {@code index:userId_sum,userId_sum,...}, users ascending.
 */
public final class Centroids {
  private final List<Map<Long, Long>> centres;
  private final double[] norms;

  public Centroids(List<Map<Long, Long>> centres) {
    this.centres = List.copyOf(centres);
    norms = new double[centres.size()];
    for (int i = 0; i < norms.length; i++) {
      long squares = 0;
      for (long value : centres.get(i).values()) {
        squares += value * value;
      }
      norms[i] = Math.sqrt(squares);
    }
  }

  /** Centres that are the given movies' own rating vectors. */
  public static Centroids ofMovies(List<MovieRatings> movies) {
    List<Map<Long, Long>> centres = new ArrayList<>();
    for (MovieRatings movie : movies) {
      Map<Long, Long> centre = new TreeMap<>();
      for (int i = 0; i < movie.users().length; i++) {
        centre.merge(movie.users()[i], (long) movie.ratings()[i], Long::sum);
      }
      centres.add(centre);
    }
    return new Centroids(centres);
  }

  public int size() {
    return centres.size();
  }

  public Map<Long, Long> centre(int index) {
    return centres.get(index);
  }

  /**
   * @return the index of the centre most cosine-similar to the movie; the lowest index among
   *     equals; a movie similar to none (all similarities 0) goes to centre 0
   */
  public int nearest(MovieRatings movie) {
    long squares = 0;
    for (int rating : movie.ratings()) {
      squares += (long) rating * rating;
    }
    double movieNorm = Math.sqrt(squares);
    int best = 0;
    double bestSimilarity = -1;
    for (int c = 0; c < centres.size(); c++) {
      Map<Long, Long> centre = centres.get(c);
      long dot = 0;
      for (int i = 0; i < movie.users().length; i++) {
        Long value = centre.get(movie.users()[i]);
        if (value != null) {
          dot += value * movie.ratings()[i];
        }
      }
      double similarity = norms[c] == 0 || movieNorm == 0 ? 0 : dot / (norms[c] * movieNorm);
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        best = c;
      }
    }
    return best;
  }

  /** @return one centre line of the file format */
  public static String line(int index, Map<Long, Long> centre) {
    StringJoiner values = new StringJoiner(",");
    new TreeMap<>(centre).forEach((user, sum) -> values.add(user + "_" + sum));
    return index + ":" + values;
  }

  /** @return a centre line parsed: its index and vector */
  public static Map.Entry<Integer, Map<Long, Long>> parseLine(String line) {
    int colon = line.indexOf(':');
    Map<Long, Long> centre = new HashMap<>();
    String values = line.substring(colon + 1).strip();
    if (!values.isEmpty()) {
      for (String pair : values.split(",")) {
        int underscore = pair.indexOf('_');
        centre.put(Long.parseLong(pair.substring(0, underscore)),
            Long.parseLong(pair.substring(underscore + 1)));
      }
    }
    return Map.entry(Integer.parseInt(line.substring(0, colon).strip()), centre);
  }

  public void write(FileSystem fs, Path file) throws IOException {
    try (Writer out = new OutputStreamWriter(fs.create(file, true), StandardCharsets.UTF_8)) {
      for (int i = 0; i < centres.size(); i++) {
        out.write(line(i, centres.get(i)) + "\n");
      }
    }
  }

  /** Reads a centroid file written by {@link #write}. */
  public static Centroids read(FileSystem fs, Path file) throws IOException {
    TreeMap<Integer, Map<Long, Long>> byIndex = new TreeMap<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(file),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (!line.isBlank()) {
          Map.Entry<Integer, Map<Long, Long>> entry = parseLine(line);
          byIndex.put(entry.getKey(), entry.getValue());
        }
      }
    } catch (RuntimeException e) {
      throw new IOException("centroid file " + file + " is not lines of"
          + " 'index:userId_sum,...': " + e.getMessage(), e);
    }
    return new Centroids(new ArrayList<>(byIndex.values()));
  }
}
