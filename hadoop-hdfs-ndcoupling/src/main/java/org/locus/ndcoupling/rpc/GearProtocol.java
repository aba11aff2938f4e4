package org.locus.ndcoupling.rpc;

import java.io.IOException;

import org.apache.hadoop.ipc.VersionedProtocol;

/**
 * The NameNode's gear service, spoken over Hadoop RPC (Writable engine: strings in, text out),
 * served by {@code GearNameNodePlugin} at {@code locus.ndcoupling.gear.rpc-address}. Every call
 * needs the HDFS superuser. Replies are {@code key=value} lines.
 */
public interface GearProtocol extends VersionedProtocol {
  long versionID = 2L;

  /**
   * @return the plan, the current gear, the log's pending entries and size, the NameNode's HA
   *     state and last applied edit ({@code ha-state}, {@code txid}), each node's state
   */
  String status() throws IOException;

  /**
   * Shifts down to {@code level}: refused (an IOException naming up to ten stranded blocks and
   * their files) when a block would keep no replica on the nodes that stay on; else the leaving
   * nodes enter maintenance, new blocks go to stand-ins, and the reply names the leaving hosts,
   * which the caller switches off once the NameNode lists them in maintenance.
   */
  String shiftDown(int level) throws IOException;

  /**
   * Makes a NameNode that is not its partition's active one (an HA standby) hold gear
   * {@code level} as the active does: the same nodes in maintenance (so that after a failover
   * they are not re-replicated while off) and the same placement, should it take over. No check
   * and no gear-up: the active ran them. Refused by an active NameNode of an HA pair.
   */
  String followGear(int level) throws IOException;

  /**
   * Shifts up to {@code level} once the returning DataNodes have registered: takes them out of
   * maintenance and starts the four-step reflection in the background.
   *
   * @param issuance sequential or batch
   * @param transfer sequential or batch
   * @return the first progress report
   */
  String startGearUp(int level, String issuance, String transfer) throws IOException;

  /** @return the running or last gear-up's report ({@code state=running|done|failed}) */
  String gearUpProgress() throws IOException;
}
