package org.locus.netns;

/**
 * A background cluster could not be started or stopped for a reason the operator can act on
 * (a directory that is not writable, a cluster already running, a supervisor that failed); the
 * message says what and where to look.
 */
public final class ClusterProcessException extends Exception {
  private static final long serialVersionUID = 1L;

  public ClusterProcessException(String message) {
    super(message);
  }

  public ClusterProcessException(String message, Throwable cause) {
    super(message, cause);
  }
}
