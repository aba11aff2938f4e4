package org.locus.cli.command;

/** The command line itself is wrong (unknown subcommand or flag, bad value). Exit code 2. */
public class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
