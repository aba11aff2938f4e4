package org.locus.ndcoupling.fatbtree;

/**
 * The answer of the node holding a leaf.
 *
 * @param status what happened
 * @param value  the owner found or replaced (FOUND), the leaf id for a split, else -1
 */
public record LeafReply(Status status, long value) {

  /** How a leaf operation ended. */
  public enum Status {
    /** The key was there (lookups: its owner; updates: the previous owner). */
    FOUND,
    /** The key was not there. */
    ABSENT,
    /** The leaf is no longer where the asker thought: descend again from the root. */
    RETRY
  }

  static final LeafReply ABSENT = new LeafReply(Status.ABSENT, -1);
  static final LeafReply RETRY = new LeafReply(Status.RETRY, -1);

  static LeafReply found(long value) {
    return new LeafReply(Status.FOUND, value);
  }
}
