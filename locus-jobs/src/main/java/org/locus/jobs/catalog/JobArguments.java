package org.locus.jobs.catalog;

import java.io.IOException;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.mapreduce.Job;

/**
 * The parsed options of one job run: values by option name (flags map to {@code ""}), the
 * number of reducers, and a hook that may adjust each job that reads the input before it is
 * submitted (the CLI uses it for {@code --kat}).
 */
public final class JobArguments {
  /** Adjusts a job that reads the run's input, before submission. */
  @FunctionalInterface
  public interface InputJobPreparer {
    Job prepare(Job job) throws IOException;
  }

  private final Map<String, String> values;
  private final int reducers;
  private final InputJobPreparer preparer;

  public JobArguments(Map<String, String> values, int reducers, InputJobPreparer preparer) {
    this.values = Map.copyOf(values);
    this.reducers = reducers;
    this.preparer = preparer;
  }

  /** Arguments with only a reducer count and no preparer. */
  public JobArguments(Map<String, String> values, int reducers) {
    this(values, reducers, job -> job);
  }

  public int reducers() {
    return reducers;
  }

  public Set<String> names() {
    return values.keySet();
  }

  /** Applies the run's preparer to a job that reads the input. */
  public Job prepareInputJob(Job job) throws IOException {
    return preparer.prepare(job);
  }

  public boolean flag(String name) {
    return values.containsKey(name);
  }

  /** @return the option's value, or {@code defaultValue} when it was not given */
  public String string(String name, String defaultValue) {
    return values.getOrDefault(name, defaultValue);
  }

  /**
   * @return the option's value as a whole number in [min, max]
   * @throws IllegalArgumentException naming the option and the expected range
   */
  public long longValue(String name, long defaultValue, long min, long max) {
    String text = values.get(name);
    if (text == null) {
      return defaultValue;
    }
    long value;
    try {
      value = parseSize(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " needs a whole number, got '" + text
          + "'");
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException("--" + name + " must be " + min + ".." + max + ", got "
          + value);
    }
    return value;
  }

  /** Like {@link #longValue} for an int-sized option. */
  public int intValue(String name, int defaultValue, int min, int max) {
    return (int) longValue(name, defaultValue, min, max);
  }

  /**
   * Parses a whole number with an optional binary suffix: {@code 64m} = 64 MiB, {@code 2k},
   * {@code 1g}.
   */
  public static long parseSize(String text) {
    if (text.isEmpty()) {
      throw new NumberFormatException("empty");
    }
    char last = Character.toLowerCase(text.charAt(text.length() - 1));
    long unit = switch (last) {
      case 'k' -> 1L << 10;
      case 'm' -> 1L << 20;
      case 'g' -> 1L << 30;
      default -> 1;
    };
    String digits = unit == 1 ? text : text.substring(0, text.length() - 1);
    return Math.multiplyExact(Long.parseLong(digits), unit);
  }
}
