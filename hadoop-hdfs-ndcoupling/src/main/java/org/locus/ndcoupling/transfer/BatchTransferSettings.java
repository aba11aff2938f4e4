package org.locus.ndcoupling.transfer;

import org.apache.hadoop.conf.Configuration;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * The batch transfer keys of one DataNode, parsed and checked once.
 *
 * @param port TCP port to listen on, 0 for any
 * @param connectionsPerTarget connections one push may open to its target
 * @param maxSessions connections the service serves at once
 * @param socketTimeoutMs silence after which a peer is given up
 * @param bandwidthPerSec bytes per second per outgoing connection, 0 for no limit
 */
record BatchTransferSettings(int port, int connectionsPerTarget, int maxSessions,
    int socketTimeoutMs, long bandwidthPerSec) {

  /** @throws IllegalArgumentException naming the key whose value is out of range */
  static BatchTransferSettings from(Configuration conf) {
    return new BatchTransferSettings(
        inRange(conf, NdCouplingConfigKeys.BATCH_TRANSFER_PORT,
            NdCouplingConfigKeys.BATCH_TRANSFER_PORT_DEFAULT, 0, 65535),
        inRange(conf, NdCouplingConfigKeys.BATCH_TRANSFER_CONNECTIONS_PER_TARGET,
            NdCouplingConfigKeys.BATCH_TRANSFER_CONNECTIONS_PER_TARGET_DEFAULT, 1, 64),
        inRange(conf, NdCouplingConfigKeys.BATCH_TRANSFER_MAX_SESSIONS,
            NdCouplingConfigKeys.BATCH_TRANSFER_MAX_SESSIONS_DEFAULT, 1, 1024),
        inRange(conf, NdCouplingConfigKeys.BATCH_TRANSFER_SOCKET_TIMEOUT_MS,
            NdCouplingConfigKeys.BATCH_TRANSFER_SOCKET_TIMEOUT_MS_DEFAULT, 1,
            Integer.MAX_VALUE),
        bandwidth(conf));
  }

  /*
   * Hadoop's getInt and getLongBytes throw exceptions that do not name the key on a value
   * that is not a number (found by locus-fuzz); these name the key and the range.
   */
  private static int inRange(Configuration conf, String key, int dflt, int min, int max) {
    String text = conf.getTrimmed(key);
    long value;
    try {
      value = text == null ? dflt : Long.parseLong(text);
    } catch (NumberFormatException e) {
      value = Long.MIN_VALUE;
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(key + " must be a whole number " + min + ".." + max
          + ", got '" + text + "'");
    }
    return (int) value;
  }

  private static long bandwidth(Configuration conf) {
    String key = NdCouplingConfigKeys.BATCH_TRANSFER_BANDWIDTH_PER_SEC;
    long value;
    try {
      value = conf.getLongBytes(key, NdCouplingConfigKeys.BATCH_TRANSFER_BANDWIDTH_PER_SEC_DEFAULT);
    } catch (RuntimeException e) { // not a number, a bad or bare suffix
      value = -1;
    }
    if (value < 0) {
      throw new IllegalArgumentException(key + " must be 0 (no limit) or a positive number of"
          + " bytes per second (suffixes k, m, g), got '" + conf.getTrimmed(key) + "'");
    }
    return value;
  }
}
