package org.locus.ndcoupling.transfer;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ServicePlugin;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NDCouplingHDFS's batch block transfer (seed 004 §4.3 step 3), a DataNode service plug-in
 * ({@code dfs.datanode.plugins}): where stock HDFS opens one connection per block moved between
 * DataNodes (DNA_TRANSFER, the Balancer's Dispatcher), a coordinator asks this service on the
 * source DataNode to send a whole list of blocks to a target, and the source sends them all
 * over one connection to the same service on the target (see {@link BatchTransferProtocol}).
 *
 * <p>Lifecycle: Hadoop builds the plug-in with the DataNode's configuration ({@link #setConf},
 * where the keys of {@link NdCouplingConfigKeys} are checked); {@link #start(Object)} receives
 * the DataNode, binds {@code locus.ndcoupling.batch-transfer.port} on the DataNode's own
 * transfer IP (each DataNode of an embedded cluster has its own loopback address), registers
 * the metrics source {@link BatchTransferMetrics} and starts an accepting thread; each
 * connection is served by a thread of a pool bounded by
 * {@code locus.ndcoupling.batch-transfer.max-sessions}. {@link #stop()} closes the listening
 * socket and every open connection, so a receiving thread discards its unfinished replica.
 *
 * <p>The service has no authentication of its own (no SASL, no block tokens), so it refuses to
 * start on a cluster with Kerberos security.
 */
public class BatchTransferService implements ServicePlugin, Configurable {
  private static final Logger LOG = LoggerFactory.getLogger(BatchTransferService.class);
  /** How long {@link #stop()} waits for the sessions to discard their unfinished replicas. */
  private static final long STOP_WAIT_MS = 5_000;
  /** How long a refused peer gets to send its hello before the refusal. */
  private static final int REFUSAL_READ_MS = 1_000;

  private Configuration conf;
  private BatchTransferSettings settings;
  private DataNode dataNode;
  private String node;
  private BatchTransferMetrics metrics;
  private String sourceName;
  private ServerSocket server;
  private ThreadPoolExecutor sessions;
  private Thread acceptor;
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private volatile boolean running;

  /** Parses and checks the batch transfer keys; a bad value fails here naming the key. */
  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.settings = BatchTransferSettings.from(conf);
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public synchronized void start(Object service) {
    dataNode = (DataNode) service;
    if (settings == null) {
      setConf(dataNode.getConf());
    }
    if (UserGroupInformation.isSecurityEnabled()) {
      throw new IllegalStateException(getClass().getName() + " has no authentication and does"
          + " not run on a secure cluster; remove it from dfs.datanode.plugins");
    }
    node = dataNode.getDisplayName();
    InetAddress ip = dataNode.getXferAddress().getAddress();
    try {
      server = new ServerSocket();
      server.setReuseAddress(true);
      server.bind(new InetSocketAddress(ip, settings.port()));
    } catch (IOException e) {
      throw new UncheckedIOException("DataNode " + node + ": cannot listen on "
          + ip.getHostAddress() + ":" + settings.port() + " for batch transfers; choose a free"
          + " port in " + NdCouplingConfigKeys.BATCH_TRANSFER_PORT, e);
    }
    metrics = new BatchTransferMetrics(node);
    metrics.listening(server.getLocalPort());
    sourceName = BatchTransferMetrics.sourceName(node);
    try {
      DefaultMetricsSystem.instance().register(sourceName,
          "Locus NDCouplingHDFS batch block transfer", metrics);
    } catch (RuntimeException e) {
      closeOnStop(server);
      throw e;
    }
    sessions = new ThreadPoolExecutor(0, settings.maxSessions(), 60, TimeUnit.SECONDS,
        new SynchronousQueue<>(), r -> daemon(r, "locus-batch-transfer-session-" + node));
    running = true;
    acceptor = daemon(this::acceptLoop, "locus-batch-transfer-accept-" + node);
    acceptor.start();
    LOG.info("Batch transfer service of DataNode {} listening on {}", node,
        server.getLocalSocketAddress());
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  private void acceptLoop() {
    while (running) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        if (running) {
          LOG.error("DataNode {}: accepting a batch transfer connection failed; the service"
              + " stops listening", node, e);
        }
        return;
      }
      try {
        sessions.execute(() -> serve(socket));
      } catch (RejectedExecutionException e) {
        refuse(socket, "DataNode " + node + " is serving " + settings.maxSessions()
            + " batch transfer connections already (" + NdCouplingConfigKeys
            .BATCH_TRANSFER_MAX_SESSIONS + "); try again later");
      }
    }
  }

  private void refuse(Socket socket, String reason) {
    LOG.warn("Refusing batch transfer connection from {}: {}", socket.getRemoteSocketAddress(),
        reason);
    try (Socket s = socket) {
      s.setSoTimeout(REFUSAL_READ_MS);
      DataInputStream in = new DataInputStream(s.getInputStream());
      BatchTransferProtocol.readHello(in);
      BatchTransferProtocol.writeAnswer(new DataOutputStream(s.getOutputStream()), reason);
    } catch (IOException e) {
      LOG.warn("Could not tell {} it was refused", socket.getRemoteSocketAddress(), e);
    }
  }

  /** Serves one connection: a coordinator's push or a source's batch. */
  private void serve(Socket socket) {
    connections.add(socket);
    String peer = String.valueOf(socket.getRemoteSocketAddress());
    try (Socket s = socket) {
      s.setSoTimeout(settings.socketTimeoutMs());
      s.setTcpNoDelay(true);
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(),
          BatchTransferProtocol.PACKET_MAX + 8));
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
          s.getOutputStream()));
      byte verb;
      try {
        verb = BatchTransferProtocol.readHello(in);
      } catch (BatchTransferProtocol.ProtocolException e) {
        BatchTransferProtocol.writeAnswer(out, e.getMessage());
        throw e;
      }
      if (verb == BatchTransferProtocol.VERB_PUSH) {
        new PushSession(dataNode, node, settings, metrics, out, peer, connections)
            .serve(in);
      } else {
        BatchTransferProtocol.writeAnswer(out, null);
        metrics.connectionAccepted();
        new BatchReceiver(dataNode, node, metrics, conf.getBoolean(
            DFSConfigKeys.DFS_DATANODE_SYNCONCLOSE_KEY,
            DFSConfigKeys.DFS_DATANODE_SYNCONCLOSE_DEFAULT)).serve(in, out, peer);
      }
    } catch (IOException e) {
      if (running) {
        LOG.warn("Batch transfer connection between {} and {} failed", node, peer, e);
      } else {
        LOG.info("Batch transfer connection between {} and {} closed as the DataNode stops:"
            + " {}", node, peer, e.toString());
      }
    } finally {
      connections.remove(socket);
    }
  }

  @Override
  public void stop() {
    ThreadPoolExecutor stopping;
    synchronized (this) {
      if (!running) {
        return;
      }
      running = false;
      closeOnStop(server);
      for (Socket socket : connections) {
        closeOnStop(socket);
      }
      stopping = sessions;
    }
    stopping.shutdown();
    try {
      if (!stopping.awaitTermination(STOP_WAIT_MS, TimeUnit.MILLISECONDS)) {
        LOG.warn("Batch transfer sessions of {} still running {} ms after stop", node,
            STOP_WAIT_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    DefaultMetricsSystem.instance().unregisterSource(sourceName);
    LOG.info("Batch transfer service of DataNode {} stopped", node);
  }

  /** Closes a socket on stop; a failure is logged, there is nothing else to do with it. */
  private void closeOnStop(Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException e) {
      LOG.warn("Closing {} of the batch transfer service of {} failed", closeable, node, e);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
