package org.locus.ndcoupling.namenode;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.GearBlockMap;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.transfer.BatchTransferClient;
import org.locus.ndcoupling.transfer.BlockPush;
import org.locus.ndcoupling.transfer.PushResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batch transfer (seed 004 §4.3 step 3): every block a source has for one target goes in one
 * push to the source DataNode's batch transfer service, which sends them all over one connection
 * and has the target report each with the stand-in as the replica to delete. Pushes to different
 * (source, target) pairs run at once, one thread each.
 */
final class BatchBlockMover implements BlockMover {
  private static final Logger LOG = LoggerFactory.getLogger(BatchBlockMover.class);
  private static final int MAX_PARALLEL_PUSHES = 32;

  private final GearBlockMap blockMap;
  private final BatchTransferClient client = new BatchTransferClient();
  private final int port;
  private final int timeoutMs;
  private final AtomicLong connections = new AtomicLong();
  private final Queue<Future<?>> inFlight = new ConcurrentLinkedQueue<>();
  private final ExecutorService pushes = Executors.newFixedThreadPool(MAX_PARALLEL_PUSHES,
      r -> {
        Thread thread = new Thread(r, "locus-gear-push");
        thread.setDaemon(true);
        return thread;
      });

  BatchBlockMover(Configuration conf, GearBlockMap blockMap) {
    this.blockMap = blockMap;
    this.port = conf.getInt(NdCouplingConfigKeys.BATCH_TRANSFER_PORT,
        NdCouplingConfigKeys.BATCH_TRANSFER_PORT_DEFAULT);
    if (port <= 0) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.BATCH_TRANSFER_PORT + " is " + port
          + ": the NameNode must know the DataNodes' batch transfer port; set the same fixed"
          + " port on the NameNode and every DataNode");
    }
    this.timeoutMs = (int) Math.min(Integer.MAX_VALUE, conf.getTimeDuration(
        NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS,
        NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS_DEFAULT,
        java.util.concurrent.TimeUnit.SECONDS, java.util.concurrent.TimeUnit.MILLISECONDS));
  }

  private record Pair(DatanodeDescriptor source, DatanodeDescriptor target) {
  }

  @Override
  public void move(List<GearBlockMap.Work> work) {
    Map<Pair, List<GearBlockMap.Work>> byPair = new LinkedHashMap<>();
    for (GearBlockMap.Work one : work) {
      byPair.computeIfAbsent(new Pair(one.source(), one.target()), k -> new ArrayList<>())
          .add(one);
    }
    String pool = blockMap.blockPoolId();
    for (Map.Entry<Pair, List<GearBlockMap.Work>> pair : byPair.entrySet()) {
      List<BlockPush> blocks = new ArrayList<>();
      for (GearBlockMap.Work one : pair.getValue()) {
        DatanodeDescriptor standIn = blockMap.datanode(one.entry().standIn());
        blocks.add(new BlockPush(one.block().getBlockId(), one.block().getGenerationStamp(),
            one.block().getNumBytes(), standIn == null ? "" : standIn.getDatanodeUuid()));
      }
      inFlight.add(pushes.submit(() -> push(pair.getKey(), pool, blocks)));
    }
  }

  /**
   * A push returns its connection count after its last block, which can be after the target
   * has reported that block to the NameNode: a gear-up that ends waits here so that its report
   * counts every connection.
   */
  @Override
  public void awaitMovesReturned(long deadlineMillis) throws InterruptedException {
    for (Future<?> push : inFlight) {
      long left = deadlineMillis - System.currentTimeMillis();
      if (left <= 0) {
        return;
      }
      try {
        push.get(left, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException | CancellationException e) {
        // push() logs its own failures; an unfinished push is the re-issue's to handle
      }
    }
  }

  private void push(Pair pair, String pool, List<BlockPush> blocks) {
    InetSocketAddress source = new InetSocketAddress(pair.source().getIpAddr(), port);
    InetSocketAddress target = new InetSocketAddress(pair.target().getIpAddr(), port);
    try {
      PushResult result = client.push(source, pool, target, blocks, timeoutMs);
      connections.addAndGet(result.connectionsOpened());
      if (result.failed() > 0) {
        LOG.warn("Batch push {} -> {}: {} of {} blocks failed (first: {}); gear-up issues them"
            + " again", source, target, result.failed(), blocks.size(),
            result.failures().get(0));
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Batch push of {} blocks {} -> {} failed: {}; gear-up issues them again",
          blocks.size(), source, target, e.getMessage());
    }
  }

  @Override
  public long connectionsOpened() {
    return connections.get();
  }

  @Override
  public void close() {
    pushes.shutdownNow();
  }
}
