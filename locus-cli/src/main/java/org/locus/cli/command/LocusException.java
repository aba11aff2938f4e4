package org.locus.cli.command;

/**
 * A command was well formed but could not be carried out; the message is the one-line reason
 * shown to the operator. Exit code 1.
 */
public class LocusException extends Exception {
  private static final long serialVersionUID = 1L;

  public LocusException(String message) {
    super(message);
  }

  public LocusException(String message, Throwable cause) {
    super(message, cause);
  }
}
