package org.locus.jobs.catalog;

/**
 * One option of a job beyond {@code --input}, {@code --output} and {@code --reducers}.
 *
 * @param name long option name without dashes, e.g. {@code clusters}
 * @param argName the argument's placeholder, e.g. {@code N}; null for a flag
 * @param description one line for help, stating the default
 */
public record JobOption(String name, String argName, String description) {
  /** An option taking a value. */
  public static JobOption value(String name, String argName, String description) {
    return new JobOption(name, argName, description);
  }

  /** An option without a value. */
  public static JobOption flag(String name, String description) {
    return new JobOption(name, null, description);
  }

  public boolean isFlag() {
    return argName == null;
  }
}
