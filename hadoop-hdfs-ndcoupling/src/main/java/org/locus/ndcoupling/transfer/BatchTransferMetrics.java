package org.locus.ndcoupling.transfer;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * metrics2 source of one DataNode's batch transfer service, registered as
 * {@code LocusBatchTransfer-<host>-<transfer port>} (so the DataNodes of one JVM do not clash)
 * and seen over JMX as {@code Hadoop:service=DataNode,name=LocusBatchTransfer-...}. Everything
 * is counted where it happens, never derived: a benchmark reports "connections per block" as
 * {@code TransferConnectionsOpened / BlocksSent}.
 *
 * <table>
 * <caption>metrics</caption>
 * <tr><td>ListenPort</td><td>gauge: the port the service is bound to (0 before it is)</td></tr>
 * <tr><td>PushesAccepted</td><td>pushes a coordinator asked this node, as a source, to do</td>
 * </tr>
 * <tr><td>TransferConnectionsOpened</td><td>connections this node opened to targets</td></tr>
 * <tr><td>TransferConnectionsAccepted</td><td>batch connections sources opened to this node
 * </td></tr>
 * <tr><td>BlocksSent / BytesSent</td><td>blocks (and their data bytes) the target finalized
 * </td></tr>
 * <tr><td>BlocksSendFailed</td><td>blocks of a push that did not reach the target</td></tr>
 * <tr><td>BlocksReceived / BytesReceived</td><td>blocks verified and finalized here</td></tr>
 * <tr><td>BlocksAlreadyPresent</td><td>blocks offered that this node already held</td></tr>
 * <tr><td>BlocksRejected</td><td>blocks refused or discarded here (checksum mismatch, stale
 * generation stamp, unknown block pool, broken connection)</td></tr>
 * </table>
 */
public class BatchTransferMetrics implements MetricsSource {
  static final String SOURCE_PREFIX = "LocusBatchTransfer-";

  private static final MetricsInfo RECORD =
      Interns.info("BatchTransfer", "Locus NDCouplingHDFS batch block transfer");
  private static final MetricsInfo HOST = Interns.info("Host", "DataNode transfer address");

  private final String host;
  private volatile int listenPort;
  private final AtomicLong pushesAccepted = new AtomicLong();
  private final AtomicLong connectionsOpened = new AtomicLong();
  private final AtomicLong connectionsAccepted = new AtomicLong();
  private final AtomicLong blocksSent = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();
  private final AtomicLong blocksSendFailed = new AtomicLong();
  private final AtomicLong blocksReceived = new AtomicLong();
  private final AtomicLong bytesReceived = new AtomicLong();
  private final AtomicLong blocksAlreadyPresent = new AtomicLong();
  private final AtomicLong blocksRejected = new AtomicLong();

  BatchTransferMetrics(String host) {
    this.host = host;
  }

  /** @return the metrics source name of the DataNode whose display name is {@code host:port} */
  public static String sourceName(String dataNodeDisplayName) {
    return SOURCE_PREFIX + dataNodeDisplayName.replace(':', '-');
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    collector.addRecord(RECORD)
        .setContext("dfs")
        .tag(HOST, host)
        .addGauge(Interns.info("ListenPort", "port of the batch transfer service"), listenPort)
        .addCounter(Interns.info("PushesAccepted", "pushes served as the source"),
            pushesAccepted.get())
        .addCounter(Interns.info("TransferConnectionsOpened",
            "batch connections opened to targets"), connectionsOpened.get())
        .addCounter(Interns.info("TransferConnectionsAccepted",
            "batch connections accepted from sources"), connectionsAccepted.get())
        .addCounter(Interns.info("BlocksSent", "blocks finalized on targets"), blocksSent.get())
        .addCounter(Interns.info("BytesSent", "data bytes of the blocks sent"), bytesSent.get())
        .addCounter(Interns.info("BlocksSendFailed", "pushed blocks that did not reach the"
            + " target"), blocksSendFailed.get())
        .addCounter(Interns.info("BlocksReceived", "blocks verified and finalized here"),
            blocksReceived.get())
        .addCounter(Interns.info("BytesReceived", "data bytes of the blocks received"),
            bytesReceived.get())
        .addCounter(Interns.info("BlocksAlreadyPresent", "blocks offered that were already"
            + " here"), blocksAlreadyPresent.get())
        .addCounter(Interns.info("BlocksRejected", "blocks refused or discarded here"),
            blocksRejected.get());
  }

  public int listenPort() {
    return listenPort;
  }

  public long pushesAccepted() {
    return pushesAccepted.get();
  }

  public long connectionsOpened() {
    return connectionsOpened.get();
  }

  public long connectionsAccepted() {
    return connectionsAccepted.get();
  }

  public long blocksSent() {
    return blocksSent.get();
  }

  public long bytesSent() {
    return bytesSent.get();
  }

  public long blocksSendFailed() {
    return blocksSendFailed.get();
  }

  public long blocksReceived() {
    return blocksReceived.get();
  }

  public long bytesReceived() {
    return bytesReceived.get();
  }

  public long blocksAlreadyPresent() {
    return blocksAlreadyPresent.get();
  }

  public long blocksRejected() {
    return blocksRejected.get();
  }

  void listening(int port) {
    listenPort = port;
  }

  void pushAccepted() {
    pushesAccepted.incrementAndGet();
  }

  void connectionOpened() {
    connectionsOpened.incrementAndGet();
  }

  void connectionAccepted() {
    connectionsAccepted.incrementAndGet();
  }

  void blockSent(long bytes) {
    blocksSent.incrementAndGet();
    bytesSent.addAndGet(bytes);
  }

  void blockSendFailed() {
    blocksSendFailed.incrementAndGet();
  }

  void blockReceived(long bytes) {
    blocksReceived.incrementAndGet();
    bytesReceived.addAndGet(bytes);
  }

  void blockAlreadyPresent() {
    blocksAlreadyPresent.incrementAndGet();
  }

  void blockRejected() {
    blocksRejected.incrementAndGet();
  }
}
