package org.locus.ndcoupling.namenode;

import java.util.List;

import org.apache.hadoop.hdfs.server.blockmanagement.GearBlockMap;

/**
 * Step 3's mechanism (seed 004 §4.3): starts moving blocks from their stand-ins to their
 * intended nodes. Returns once the moves are under way; gear-up watches the block map for their
 * arrival.
 */
public interface BlockMover {
  /** Starts these moves; a move that cannot start is logged and left to the re-issue. */
  void move(List<GearBlockMap.Work> work);

  /** @return connections this mover opened so far, or -1 when it cannot count them */
  long connectionsOpened();

  /**
   * Waits until the moves started so far have returned, or until {@code deadlineMillis}
   * ({@link System#currentTimeMillis}), so that {@link #connectionsOpened} counts them all. A
   * mover whose moves return nothing to wait for (handed to the heartbeats) returns at once.
   */
  default void awaitMovesReturned(long deadlineMillis) throws InterruptedException {
  }

  /** Stops whatever the mover still runs. */
  default void close() {
  }
}
