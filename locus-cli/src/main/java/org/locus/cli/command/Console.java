package org.locus.cli.command;

import java.io.PrintStream;

/**
 * Where a command prints: results to {@link #out}, progress and errors to {@link #err}, so that
 * output stays pipeable.
 *
 * @param out results
 * @param err progress, warnings and errors
 */
public record Console(PrintStream out, PrintStream err) {
  public static Console system() {
    return new Console(System.out, System.err);
  }
}
