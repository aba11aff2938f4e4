package org.locus.ndcoupling.rpc;

import java.io.IOException;

import org.apache.hadoop.ipc.VersionedProtocol;

/**
 * The NameNode's gear service, spoken over Hadoop RPC (Writable engine: strings in, text out),
 * served by {@code GearNameNodePlugin} at {@code locus.ndcoupling.gear.rpc-address}. Every call
 * needs the HDFS superuser. Replies are {@code key=value} lines.
 */
public interface GearProtocol extends VersionedProtocol {
  long versionID = 1L;

  /** @return the plan, the current gear, the log's pending entries and size, each node's state */
  String status() throws IOException;

  /**
   * Shifts down to {@code level}: refused (an IOException naming up to ten stranded blocks and
   * their files) when a block would keep no replica on the nodes that stay on; else the leaving
   * nodes enter maintenance, new blocks go to stand-ins, and the reply names the leaving hosts,
   * which the caller switches off once the NameNode lists them in maintenance.
   */
  String shiftDown(int level) throws IOException;

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
