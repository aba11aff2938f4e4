package org.locus.ndcoupling.shift;

import java.io.IOException;

/** Makes one NameNode of a partition with a metadata copy (an HA pair) the active one. */
public interface PartitionHandOver {
  /**
   * Returns once NameNode {@code nameNodeId} of {@code nameservice} is active (it read the
   * edits it had missed first); the other one is standby.
   */
  void makeActive(String nameservice, String nameNodeId) throws IOException;
}
