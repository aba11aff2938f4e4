package org.locus.ndcoupling.transfer;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.util.Time;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * The coordinator's side of a push (the gear-up code, a benchmark or a test): asks the
 * {@link BatchTransferService} of a source DataNode to send blocks to the service of a target
 * DataNode over one connection, and waits for every block's outcome. Holds no state; one
 * instance may be shared by threads.
 */
public final class BatchTransferClient {

  /**
   * Where the batch transfer service of a DataNode listens in a cluster configured with
   * {@code conf}: the DataNode's IP (its transfer address) and the configured port.
   *
   * @throws IllegalArgumentException when the port key is 0: each DataNode then picks its own,
   *     published as the ListenPort metric of its {@link BatchTransferMetrics}
   */
  public static InetSocketAddress serviceAddress(DatanodeID dataNode, Configuration conf) {
    int port = conf.getInt(NdCouplingConfigKeys.BATCH_TRANSFER_PORT,
        NdCouplingConfigKeys.BATCH_TRANSFER_PORT_DEFAULT);
    if (port == 0) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.BATCH_TRANSFER_PORT + " is 0, so"
          + " DataNode " + dataNode.getXferAddr() + " chose its own port; read the ListenPort"
          + " metric of " + BatchTransferMetrics.sourceName(dataNode.getXferAddrWithHostname()));
    }
    return new InetSocketAddress(dataNode.getIpAddr(), port);
  }

  /**
   * Pushes {@code blocks} of block pool {@code blockPoolId} from the source to the target and
   * waits until every block has an outcome.
   *
   * @param sourceService the batch transfer service of the DataNode holding the replicas
   * @param targetService the batch transfer service of the DataNode that should hold them
   * @param blocks the blocks, no block twice
   * @param timeoutMs how long the whole push may take, connecting included
   * @return each block's outcome in the order of {@code blocks}, and the source's totals
   * @throws IOException naming the source when it cannot be reached, refuses the push, breaks
   *     the protocol or does not finish within {@code timeoutMs}; the blocks already finalized
   *     on the target stay there
   */
  public PushResult push(InetSocketAddress sourceService, String blockPoolId,
      InetSocketAddress targetService, List<BlockPush> blocks, int timeoutMs)
      throws IOException {
    if (timeoutMs <= 0) {
      throw new IllegalArgumentException("push timeout must be positive, got " + timeoutMs);
    }
    checkNoDuplicates(blocks);
    long deadline = Time.monotonicNow() + timeoutMs;
    try (Socket socket = new Socket()) {
      socket.setTcpNoDelay(true);
      socket.connect(sourceService, timeoutMs);
      DataOutputStream out = new DataOutputStream(
          new BufferedOutputStream(socket.getOutputStream()));
      DataInputStream in = new DataInputStream(
          new BufferedInputStream(socket.getInputStream()));
      BatchTransferProtocol.writeHello(out, BatchTransferProtocol.VERB_PUSH);
      writeRequest(out, blockPoolId, targetService, blocks);
      out.flush();
      String source = "source " + sourceService;
      setRemaining(socket, deadline, source);
      BatchTransferProtocol.readAnswer(in, source);
      return readResult(in, socket, deadline, source, blocks);
    } catch (SocketTimeoutException e) {
      throw new SocketTimeoutException("push of " + blocks.size() + " blocks from "
          + sourceService + " to " + targetService + " did not finish within " + timeoutMs
          + " ms: " + e.getMessage());
    }
  }

  private static void checkNoDuplicates(List<BlockPush> blocks) {
    Set<Long> seen = new HashSet<>();
    for (BlockPush block : blocks) {
      if (!seen.add(block.blockId())) {
        throw new IllegalArgumentException("blk_" + block.blockId()
            + " is named twice in one push");
      }
    }
  }

  private static void writeRequest(DataOutputStream out, String blockPoolId,
      InetSocketAddress target, List<BlockPush> blocks) throws IOException {
    out.writeUTF(blockPoolId);
    out.writeUTF(target.getHostString());
    out.writeInt(target.getPort());
    out.writeInt(blocks.size());
    for (BlockPush block : blocks) {
      out.writeLong(block.blockId());
      out.writeLong(block.generationStamp());
      out.writeLong(block.numBytes());
      out.writeUTF(block.delHint());
    }
  }

  private static PushResult readResult(DataInputStream in, Socket socket, long deadline,
      String source, List<BlockPush> blocks) throws IOException {
    Map<Long, BlockOutcome> outcomes = new LinkedHashMap<>();
    while (true) {
      setRemaining(socket, deadline, source);
      byte frame = in.readByte();
      if (frame == BatchTransferProtocol.TOTALS) {
        int connections = in.readInt();
        long bytes = in.readLong();
        return new PushResult(inRequestOrder(blocks, outcomes, source), connections, bytes);
      }
      BatchTransferProtocol.expect(BatchTransferProtocol.OUTCOME, frame, source);
      long blockId = in.readLong();
      BlockOutcome.Status status = BlockOutcome.Status.fromWire(in.readByte());
      long bytes = in.readLong();
      String reason = in.readUTF();
      outcomes.put(blockId, new BlockOutcome(blockId, status, bytes, reason));
    }
  }

  private static List<BlockOutcome> inRequestOrder(List<BlockPush> blocks,
      Map<Long, BlockOutcome> outcomes, String source) throws IOException {
    List<BlockOutcome> ordered = new ArrayList<>(blocks.size());
    for (BlockPush block : blocks) {
      BlockOutcome outcome = outcomes.get(block.blockId());
      if (outcome == null) {
        throw new BatchTransferProtocol.ProtocolException(source + " ended the push without"
            + " an outcome for " + block.blockName());
      }
      ordered.add(outcome);
    }
    return ordered;
  }

  private static void setRemaining(Socket socket, long deadline, String source)
      throws IOException {
    long remaining = deadline - Time.monotonicNow();
    if (remaining <= 0) {
      throw new SocketTimeoutException("no answer from " + source + " in time");
    }
    socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, remaining));
  }
}
