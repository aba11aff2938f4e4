package org.locus.ndcoupling;

/**
 * Every configuration key of NDCouplingHDFS, with its default and a one-line meaning. Keys are
 * grouped by the part of the feature that reads them, alphabetically within a group.
 */
public final class NdCouplingConfigKeys {
  private NdCouplingConfigKeys() {
  }

  private static final String PREFIX = "locus.ndcoupling.";

  // batch transfer (seed 004 §4.3 step 3): the DataNode plug-in that sends many blocks to one
  // target over one connection, org.locus.ndcoupling.transfer.BatchTransferService

  /** Bytes per second each outgoing batch connection may send; 0 = unthrottled. */
  public static final String BATCH_TRANSFER_BANDWIDTH_PER_SEC =
      PREFIX + "batch-transfer.bandwidth-per-sec";
  public static final long BATCH_TRANSFER_BANDWIDTH_PER_SEC_DEFAULT = 0;

  /** Connections a source opens to one target for one push; the batch is split among them. */
  public static final String BATCH_TRANSFER_CONNECTIONS_PER_TARGET =
      PREFIX + "batch-transfer.connections-per-target";
  public static final int BATCH_TRANSFER_CONNECTIONS_PER_TARGET_DEFAULT = 1;

  /** Connections (pushes and incoming batches) one DataNode's service serves at once. */
  public static final String BATCH_TRANSFER_MAX_SESSIONS =
      PREFIX + "batch-transfer.max-sessions";
  public static final int BATCH_TRANSFER_MAX_SESSIONS_DEFAULT = 16;

  /**
   * TCP port of the service, on the DataNode's transfer address; 0 = any free port (tests), the
   * bound one published as the ListenPort metric.
   */
  public static final String BATCH_TRANSFER_PORT = PREFIX + "batch-transfer.port";
  public static final int BATCH_TRANSFER_PORT_DEFAULT = 50120;

  /** Milliseconds a peer may stay silent on a batch connection before it is given up. */
  public static final String BATCH_TRANSFER_SOCKET_TIMEOUT_MS =
      PREFIX + "batch-transfer.socket-timeout-ms";
  public static final int BATCH_TRANSFER_SOCKET_TIMEOUT_MS_DEFAULT = 60_000;
}
