package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import org.apache.hadoop.ipc.VersionedProtocol;

/**
 * What an operator or the gear shifter asks any index node (Hadoop RPC, Writable engine, on the
 * index server's port): switch a whole node of the index off, run its step 1, take it back, or
 * tell its state. The node asked coordinates the switch across every node
 * ({@code service.NodeSwitchCoordinator}); refusals cross as IOExceptions with the reason.
 * {@link IndexAdminClient} wraps the proxy.
 */
public interface IndexAdminProtocol extends VersionedProtocol {
  long versionID = 1L;

  /**
   * Switches {@code node} off: its copy answers for it, and the node it copies logs for the
   * copy it keeps. Its index server may be stopped afterwards (run again, completes a broken
   * switch).
   */
  void nodeOff(int node) throws IOException;

  /**
   * Gear-up step 1 for {@code node}, whose index server is up again at its address: what was
   * shipped to it (its own pages, and the copy it keeps).
   */
  ReturnShippedWritable nodeReturning(int node) throws IOException;

  /** {@code node} answers for its pages again (run again, completes a broken one). */
  void nodeBack(int node) throws IOException;

  /** The name of {@code node}'s {@code NodeCopies.State}: ON, OFF or RETURNING. */
  String state(int node) throws IOException;
}
