package org.locus.energy.datanode.offload;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.util.DiskChecker.DiskOutOfSpaceException;
import org.locus.energy.policy.WriteOffloadPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's dataset seen through a {@link Proxy} that forwards every call unchanged except
 * {@code createRbw} and {@code createTemporary} for an {@code ARCHIVE} (backup) volume: when the
 * {@link WriteOffloadPolicy} says so, the replica is created on a {@code DISK} (primary) volume
 * of the same node instead and remembered in {@link StagedReplicas}. The DataNode then reports it to the NameNode on the
 * volume it really lives on, so readers find it there. {@link #moveToAwakeBackups()} moves staged
 * replicas to their backup with the dataset's own {@code moveBlockAcrossStorage} (what
 * {@code hdfs mover} uses for a move inside one node; it tells the NameNode itself) once
 * the backup is awake.
 *
 * <p>{@code createRbw} is a client pipeline's write; {@code createTemporary} is a replica another
 * DataNode sends: the NameNode's re-replication (a block allocated with fewer targets than its
 * replication, e.g. when a node was too busy, or one that lost a replica), a Balancer or
 * cross-node Mover transfer, or a node added to a pipeline. Each would otherwise spin a sleeping
 * backup up for data nobody is waiting to read, so both are staged. The block keeps its replicas
 * on distinct nodes throughout; only which disk of the node holds the backup copy changes. (A
 * Mover run that wants a replica on a sleeping node's backup therefore sees it staged on the
 * node's primary and reports no progress for it; the node moves it when the backup wakes, or
 * {@code hdfs mover} does once the backups are awake.) A move inside one node
 * ({@code moveBlockAcrossStorage}, which both this class and {@code hdfs mover} use) is never
 * staged.
 */
final class OffloadingDataset implements InvocationHandler, WriteOffloading {
  private static final Logger LOG = LoggerFactory.getLogger(OffloadingDataset.class);
  /** The calls that create a replica on a volume: (storage type, storage ID, block, ...). */
  private static final Set<String> STAGED_CALLS = Set.of("createRbw", "createTemporary");

  private final FsDatasetSpi<?> inner;
  private final WriteOffloadPolicy policy;
  private final long blockBytes;
  private final StagedReplicas staged = new StagedReplicas();
  private final AtomicBoolean moving = new AtomicBoolean();
  private final ExecutorService mover = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "locus-energy-offload-mover");
    t.setDaemon(true);
    return t;
  });
  private volatile Predicate<String> backupAsleep;

  private OffloadingDataset(FsDatasetSpi<?> inner, WriteOffloadPolicy policy, long blockBytes) {
    this.inner = inner;
    this.policy = policy;
    this.blockBytes = blockBytes;
  }

  /**
   * @param blockBytes the cluster's block size, the most one staged replica can hold
   * @return {@code inner} behind a proxy with every public interface its class implements and
   *     {@link WriteOffloading}
   */
  static FsDatasetSpi<?> wrap(FsDatasetSpi<?> inner, WriteOffloadPolicy policy, long blockBytes) {
    Set<Class<?>> interfaces = new LinkedHashSet<>();
    for (Class<?> c = inner.getClass(); c != null; c = c.getSuperclass()) {
      for (Class<?> i : c.getInterfaces()) {
        if (Modifier.isPublic(i.getModifiers())) {
          interfaces.add(i);
        }
      }
    }
    interfaces.add(WriteOffloading.class);
    return (FsDatasetSpi<?>) Proxy.newProxyInstance(OffloadingDataset.class.getClassLoader(),
        interfaces.toArray(new Class<?>[0]), new OffloadingDataset(inner, policy, blockBytes));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == WriteOffloading.class) {
      return call(this, method, args);
    }
    if (STAGED_CALLS.contains(method.getName()) && args[0] == StorageType.ARCHIVE) {
      Object onPrimary = stageOnPrimary(method, args);
      if (onPrimary != null) {
        return onPrimary;
      }
    }
    if (method.getName().equals("shutdown")) {
      mover.shutdownNow();
    }
    return call(inner, method, args);
  }

  /** @return the replica created on a primary volume, or null to write to the backup */
  private Object stageOnPrimary(Method create, Object[] args) throws Throwable {
    Predicate<String> asleep = backupAsleep;
    String backup = (String) args[1];
    if (asleep == null || backup == null
        || !policy.stage(asleep.test(backup), (long) staged.size() * blockBytes, blockBytes)) {
      return null;
    }
    Object[] primaryArgs = args.clone();
    primaryArgs[0] = StorageType.DISK;
    primaryArgs[1] = null; // the dataset's volume choice among the primaries
    ExtendedBlock block = (ExtendedBlock) args[2];
    Object handler;
    try {
      handler = call(inner, create, primaryArgs);
    } catch (DiskOutOfSpaceException e) {
      LOG.warn("No primary volume can stage {} for sleeping backup {} ({}); writing to the"
          + " backup", block, backup, e.getMessage());
      return null;
    }
    staged.add(block.getBlockPoolId(), block.getBlockId(), backup);
    LOG.debug("Staged {} on a primary volume: backup {} sleeps", block, backup);
    return handler;
  }

  private static Object call(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public void attach(Predicate<String> asleep) {
    this.backupAsleep = asleep;
  }

  @Override
  public void moveToAwakeBackups() {
    if (backupAsleep == null || staged.size() == 0 || !moving.compareAndSet(false, true)) {
      return;
    }
    try {
      mover.execute(() -> {
        try {
          movePass();
        } finally {
          moving.set(false);
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      moving.set(false); // shut down with the dataset
    }
  }

  /** Moves each finalized staged replica whose backup is awake; the rest wait for a later pass. */
  private void movePass() {
    Predicate<String> asleep = backupAsleep;
    for (StagedReplicas.Staged s : staged.snapshot()) {
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
      if (!policy.move(asleep.test(s.backupStorageId()))) {
        continue;
      }
      try {
        Block stored = inner.getStoredBlock(s.blockPoolId(), s.blockId());
        if (stored == null) {
          staged.forget(s);
          continue;
        }
        ExtendedBlock block = new ExtendedBlock(s.blockPoolId(), stored);
        if (!inner.isValidBlock(block)) {
          continue; // still being written
        }
        FsVolumeSpi volume = inner.getVolume(block);
        if (volume == null || volume.getStorageType() != StorageType.DISK) {
          staged.forget(s); // moved by hdfs mover or gone
          continue;
        }
        inner.moveBlockAcrossStorage(block, StorageType.ARCHIVE, s.backupStorageId());
        staged.moved(s);
        LOG.debug("Moved staged {} to its backup {}", block, s.backupStorageId());
      } catch (ReplicaNotFoundException e) {
        staged.forget(s); // deleted meanwhile
      } catch (IOException e) {
        LOG.warn("Could not move staged block {} to backup {}: {}; retrying later",
            s.blockId(), s.backupStorageId(), e.getMessage());
      }
    }
  }

  @Override
  public int stagedReplicas() {
    return staged.size();
  }

  @Override
  public long offloadedReplicas() {
    return staged.stagedTotal();
  }

  @Override
  public long movedReplicas() {
    return staged.movedTotal();
  }
}
