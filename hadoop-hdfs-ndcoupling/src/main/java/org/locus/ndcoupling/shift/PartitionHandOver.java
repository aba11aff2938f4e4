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
}
