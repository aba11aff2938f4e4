package org.locus.ndcoupling.shift;

import java.io.IOException;
import java.util.Collection;

/** Makes one NameNode of a partition with a metadata copy (an HA pair) the active one. */
public interface PartitionHandOver {
  /**
   * Returns once NameNode {@code nameNodeId} of {@code nameservice} is active (it read the
   * edits it had missed first); the other one is standby.
   */
  void makeActive(String nameservice, String nameNodeId) throws IOException;

  /**
   * Has the DataNodes on {@code hosts}, switched on again while NameNode {@code nameNodeId} of
   * {@code nameservice} was active, report their replicas to it afresh. A NameNode that became
   * active while a DataNode was off keeps treating that DataNode's replicas as possibly stale
   * until it reports after a heartbeat, and leaves every block with a replica there
   * over-replicated meanwhile.
   */
  void refreshReturning(String nameservice, String nameNodeId, Collection<String> hosts)
      throws IOException;

  /**
   * Has NameNode {@code nameNodeId} of {@code nameservice}, the active one, start a new edit log
   * segment. The quorum journal leaves out a JournalNode that missed writes (one switched off
   * with its node) until the writer's next segment, so until then the loss of one more
   * JournalNode stops the NameNode; the new segment takes every running JournalNode again.
   */
  void rollEdits(String nameservice, String nameNodeId) throws IOException;
}
