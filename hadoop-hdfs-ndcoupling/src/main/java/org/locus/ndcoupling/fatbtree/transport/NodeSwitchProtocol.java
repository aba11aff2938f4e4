package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import org.apache.hadoop.ipc.VersionedProtocol;

/**
 * The steps a switch coordinator asks of each index node (Hadoop RPC, Writable engine, on the
 * index server's port): the mechanism of switching a whole node off, its step 1 and its return
 * over RPC (docs/ndcoupling.md, "Fat-Btree copies over RPC"). Which switch is allowed is the
 * coordinator's policy ({@code NodeSwitchRules}); the order of the steps is its protocol.
 *
 * <p>Every step is idempotent: asked twice, a node that is already where the step leads
 * answers as if it had just got there, so a coordinator that died mid-switch can be run again.
 * {@code node} is the node id being switched; "holder" is the node keeping its copy.
 */
public interface NodeSwitchProtocol extends VersionedProtocol {
  long versionID = 1L;

  /**
   * Closes this node's operation gate for switch {@code switchId}: returns once every client
   * operation admitted here has finished (with the messages it sends), holding new ones back.
   * Opens again by itself after {@code leaseMillis} if {@link #openGate} does not come, and
   * says so in the log and the metrics. Refused while another switch holds the gate.
   */
  void closeGate(String switchId, long leaseMillis) throws IOException;

  /**
   * Opens the gate {@code switchId} closed. Refused, naming the expired lease, if the gate had
   * already opened by itself: the switch ran with operations admitted and must be checked.
   */
  void openGate(String switchId) throws IOException;

  /**
   * Off: this node stops answering for its own id (its own incarnation is stopped) and records
   * in its directory that it is off, so that it starts again without answering for it.
   */
  void stopOwn() throws IOException;

  /**
   * Back: this node opens its own store again from its directory, mirrored to its holder, and
   * answers for its own id at its own address; the record that it is off is removed.
   */
  void startOwn() throws IOException;

  /**
   * Off, on the holder: starts an incarnation of {@code node} on its copy, logging every page
   * it changes, served by a server of its own; answers that server's address (host:port).
   */
  String startCopy(int node) throws IOException;

  /**
   * Step 1, on the holder: sends {@code node}'s own store (at its own address) the pages the
   * copy changed since it started serving, and mirrors every later write there too.
   */
  PagesShippedWritable shipCopy(int node) throws IOException;

  /**
   * Off, on the node whose copy the node going off keeps: from now on log this node's page
   * changes instead of mirroring them, as that copy goes away with its holder.
   */
  void logForHolder() throws IOException;

  /**
   * Step 1, on the node whose copy the returning node keeps: sends that copy (at the holder's
   * own address) the pages changed since {@link #logForHolder}, and mirrors again.
   */
  PagesShippedWritable shipToHolder() throws IOException;

  /** Back, on the holder: stops the incarnation of {@code node} and its server. */
  void stopCopy(int node) throws IOException;

  /**
   * On the holder: the address (host:port) of the server of the incarnation serving for
   * {@code node} on its copy, or the empty string if the copy is not serving.
   */
  String copyAddress(int node) throws IOException;

  /** Every later message of this node for node id {@code node} goes to {@code hostPort}. */
  void route(int node, String hostPort) throws IOException;

  /**
   * On the holder: where {@code node} is in its off-and-on cycle as its copy sees it, the name of
   * a {@code NodeCopies.State}: ON (the copy follows), OFF (the copy serves and logs) or
   * RETURNING (the copy serves and mirrors to the node).
   */
  String copyState(int node) throws IOException;
}
