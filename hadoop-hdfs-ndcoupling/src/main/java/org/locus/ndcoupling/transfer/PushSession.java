package org.locus.ndcoupling.transfer;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.NdCouplingDataNodeAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one coordinator's PUSH on the source DataNode: reads the request, splits the blocks
 * among at most {@code connections-per-target} connections (one by default, so the whole
 * batch travels over one connection), lets a {@link BatchSender} stream each share, and
 * writes every block's outcome back to the coordinator as it comes, then the totals.
 */
final class PushSession {
  private static final Logger LOG = LoggerFactory.getLogger(PushSession.class);

  private final DataNode dataNode;
  private final String node;
  private final BatchTransferSettings settings;
  private final BatchTransferMetrics metrics;
  private final DataOutputStream toCoordinator;
  private final String coordinator;
  private final Set<Socket> openConnections;
  /** The first failure to write to the coordinator; once set, no further block is sent. */
  private IOException coordinatorLost;

  PushSession(DataNode dataNode, String node, BatchTransferSettings settings,
      BatchTransferMetrics metrics, DataOutputStream toCoordinator, String coordinator,
      Set<Socket> openConnections) {
    this.dataNode = dataNode;
    this.node = node;
    this.settings = settings;
    this.metrics = metrics;
    this.toCoordinator = toCoordinator;
    this.coordinator = coordinator;
    this.openConnections = openConnections;
  }

  /** Reads the request after the hello, serves it and answers. */
  void serve(DataInputStream in) throws IOException {
    String blockPoolId = in.readUTF();
    String targetHost = in.readUTF();
    int targetPort = in.readInt();
    int count = in.readInt();
    if (count < 0) {
      throw new BatchTransferProtocol.ProtocolException("push from " + coordinator
          + " names a negative block count " + count);
    }
    List<BlockPush> blocks = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < count; i++) {
      BlockPush push = new BlockPush(in.readLong(), in.readLong(), in.readLong(), in.readUTF());
      if (!seen.add(push.blockId())) {
        throw new BatchTransferProtocol.ProtocolException("push from " + coordinator
            + " names " + push.blockName() + " twice");
      }
      blocks.add(push);
    }
    InetSocketAddress target = new InetSocketAddress(targetHost, targetPort);
    if (target.isUnresolved()) {
      BatchTransferProtocol.writeAnswer(toCoordinator, "target host " + targetHost
          + " does not resolve on source " + node);
      return;
    }
    BatchTransferProtocol.writeAnswer(toCoordinator, null);
    metrics.pushAccepted();
    LOG.info("Push of {} blocks of {} from {} to {}, asked by {}", blocks.size(), blockPoolId,
        node, target, coordinator);

    BatchSender.Sent sent;
    if (!NdCouplingDataNodeAccess.servesBlockPool(dataNode, blockPoolId)) {
      for (BlockPush push : blocks) {
        metrics.blockSendFailed();
        report(BlockOutcome.failed(push.blockId(), "source " + node
            + " serves no block pool " + blockPoolId + " (" + push.blockName() + ")"));
      }
      sent = new BatchSender.Sent(0, 0);
    } else {
      sent = sendAll(blockPoolId, target, blocks);
    }
    synchronized (this) {
      if (coordinatorLost != null) {
        throw coordinatorLost;
      }
      toCoordinator.writeByte(BatchTransferProtocol.TOTALS);
      toCoordinator.writeInt(sent.connections());
      toCoordinator.writeLong(sent.bytes());
      toCoordinator.flush();
    }
  }

  /** @return connections opened and data bytes sent, over all of them */
  private BatchSender.Sent sendAll(String blockPoolId, InetSocketAddress target,
      List<BlockPush> blocks) throws IOException {
    if (blocks.isEmpty()) {
      return new BatchSender.Sent(0, 0);
    }
    List<List<BlockPush>> shares = shares(blocks,
        Math.min(settings.connectionsPerTarget(), blocks.size()));
    BatchSender sender = new BatchSender(dataNode.getFSDataset(), node, settings, metrics,
        openConnections);
    if (shares.size() == 1) {
      return sender.send(blockPoolId, target, blocks, this::report, this::cancelled);
    }
    // bounded parallelism: one thread per extra connection, for this push only
    ExecutorService pool = Executors.newFixedThreadPool(shares.size(), r -> {
      Thread t = new Thread(r, "locus-batch-transfer-push-" + node);
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<BatchSender.Sent>> running = new ArrayList<>();
      for (List<BlockPush> share : shares) {
        running.add(pool.submit(() -> sender.send(blockPoolId, target, share, this::report,
            this::cancelled)));
      }
      int connections = 0;
      long bytes = 0;
      for (Future<BatchSender.Sent> f : running) {
        BatchSender.Sent sent = f.get();
        connections += sent.connections();
        bytes += sent.bytes();
      }
      return new BatchSender.Sent(connections, bytes);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("push from " + node + " to " + target + " interrupted", e);
    } catch (ExecutionException e) {
      throw new IOException("push from " + node + " to " + target + " failed", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** Deals the blocks round-robin into {@code n} shares, so each connection gets a mix. */
  static List<List<BlockPush>> shares(List<BlockPush> blocks, int n) {
    List<List<BlockPush>> shares = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      shares.add(new ArrayList<>());
    }
    for (int i = 0; i < blocks.size(); i++) {
      shares.get(i % n).add(blocks.get(i));
    }
    return shares;
  }

  private synchronized boolean cancelled() {
    return coordinatorLost != null;
  }

  /** Writes one outcome to the coordinator; the senders' threads call this. */
  private synchronized void report(BlockOutcome outcome) {
    if (coordinatorLost != null) {
      return;
    }
    try {
      toCoordinator.writeByte(BatchTransferProtocol.OUTCOME);
      toCoordinator.writeLong(outcome.blockId());
      toCoordinator.writeByte(outcome.status().toWire());
      toCoordinator.writeLong(outcome.bytes());
      BatchTransferProtocol.writeReason(toCoordinator, outcome.reason());
      toCoordinator.flush();
    } catch (IOException e) {
      LOG.warn("Coordinator {} of a push from {} is gone; sending no further blocks",
          coordinator, node, e);
      coordinatorLost = e;
    }
  }
}
