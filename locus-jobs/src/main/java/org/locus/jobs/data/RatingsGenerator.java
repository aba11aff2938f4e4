package org.locus.jobs.data;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * {@code ratings}: PUMA's movie-ratings format, one movie per line,
 * {@code movieId:userId_rating,userId_rating,...}. Movie ids are unique across files
 * (line {@code i} of file {@code f} of {@code F} is movie {@code i*F+f+1}); each movie has
 * 5-100 ratings from distinct users among 1..20,000; ratings 1-5 scatter around a per-movie
 * quality so that average ratings spread over the histogram bins.
 */
final class RatingsGenerator extends LineGenerator {
  static final int USERS = 20_000;

  @Override
  public String kind() {
    return "ratings";
  }

  @Override
  public String summary() {
    return "movieId:userId_rating,... lines, ratings 1-5 (histogram-*, classification,"
        + " k-means)";
  }

  @Override
  protected void line(SplittableRandom random, int file, int files, long index,
      long totalBytes, StringBuilder out) {
    out.append(index * files + file + 1).append(':');
    int count = 5 + random.nextInt(96);
    double quality = 1 + 4 * random.nextDouble();
    Set<Integer> users = new HashSet<>();
    for (int i = 0; i < count; i++) {
      int user;
      do {
        user = 1 + random.nextInt(USERS);
      } while (!users.add(user));
      int rating = (int) Math.round(quality + 1.5 * (random.nextDouble() - 0.5));
      out.append(i == 0 ? "" : ",").append(user).append('_')
          .append(Math.max(1, Math.min(5, rating)));
    }
  }
}
