package org.locus.bench;

/**
 * A benchmark could not run or its measurement failed a check, for a reason the operator can
 * act on; the message says what (a job that failed, disks that never fell quiet, a report
 * directory that cannot be created).
 */
public final class BenchException extends Exception {
  private static final long serialVersionUID = 1L;

  public BenchException(String message) {
    super(message);
  }
}
