package org.locus.jobs.puma;

/**
 * One line of the PUMA movie-ratings data set: {@code movieId:userId_rating,userId_rating,...}
 * with whole-number ids and ratings 1 to 5.
 *
 * @param movieId the movie
 * @param users the raters, in line order
 * @param ratings {@code ratings[i]} is the rating of {@code users[i]}
 */
public record MovieRatings(long movieId, long[] users, int[] ratings) {
  /**
   * Parses one line.
   *
   * @throws IllegalArgumentException quoting the line and saying what is expected
   */
  public static MovieRatings parse(String line) {
    int colon = line.indexOf(':');
    try {
      if (colon < 0) {
        throw new NumberFormatException("no ':'");
      }
      long movie = Long.parseLong(line.substring(0, colon).strip());
      String[] pairs = line.substring(colon + 1).strip().split(",");
      long[] users = new long[pairs.length];
      int[] ratings = new int[pairs.length];
      for (int i = 0; i < pairs.length; i++) {
        int underscore = pairs[i].indexOf('_');
        users[i] = Long.parseLong(pairs[i].substring(0, underscore));
        ratings[i] = Integer.parseInt(pairs[i].substring(underscore + 1));
        if (ratings[i] < 1 || ratings[i] > 5) {
          throw new NumberFormatException("rating " + ratings[i]);
        }
      }
      return new MovieRatings(movie, users, ratings);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a movie-ratings line"
          + " 'movieId:userId_rating,...' with ratings 1-5 (" + e.getMessage() + "): '"
          + (line.length() > 80 ? line.substring(0, 80) + "..." : line) + "'");
    }
  }

  /** @return the mean rating */
  public double average() {
    long sum = 0;
    for (int rating : ratings) {
      sum += rating;
    }
    return (double) sum / ratings.length;
  }
}
