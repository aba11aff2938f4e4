package org.locus.energy.datanode.offload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The replicas a DataNode wrote to a primary volume in place of a sleeping backup, each with the
 * backup volume it was meant for, and the totals staged and moved. Thread-safe: transfer
 * threads add, the mover removes. Kept in memory: after a DataNode restart the replicas still
 * staged stay on the primary volume, where {@code hdfs mover} (which restores WARM's placement)
 * moves them.
 */
final class StagedReplicas {
  /** A staged replica: block pool, block ID and the backup's storage ID (null: any backup). */
  record Staged(String blockPoolId, long blockId, String backupStorageId) {
  }

  private final Map<String, Staged> byBlock = new ConcurrentHashMap<>();
  private final AtomicLong staged = new AtomicLong();
  private final AtomicLong moved = new AtomicLong();

  void add(String blockPoolId, long blockId, String backupStorageId) {
    byBlock.put(key(blockPoolId, blockId), new Staged(blockPoolId, blockId, backupStorageId));
    staged.incrementAndGet();
  }

  /** The replica reached its backup. */
  void moved(Staged s) {
    if (byBlock.remove(key(s.blockPoolId(), s.blockId()), s)) {
      moved.incrementAndGet();
    }
  }

  /** The replica is gone (deleted) or was moved by someone else. */
  void forget(Staged s) {
    byBlock.remove(key(s.blockPoolId(), s.blockId()), s);
  }

  List<Staged> snapshot() {
    return new ArrayList<>(byBlock.values());
  }

  int size() {
    return byBlock.size();
  }

  long stagedTotal() {
    return staged.get();
  }

  long movedTotal() {
    return moved.get();
  }

  private static String key(String blockPoolId, long blockId) {
    return blockPoolId + ':' + blockId;
  }
}
