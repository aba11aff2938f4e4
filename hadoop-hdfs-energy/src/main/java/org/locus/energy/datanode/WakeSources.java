package org.locus.energy.datanode;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.locus.energy.EnergySettings;
import org.locus.energy.policy.PrimaryDrainPredictor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything that wakes a DataNode's backups ahead of an access (seed 000 §4.3.1): the
 * drain predictor (§4.3.3), a failed primary volume of this node (§4.5), and requests from
 * outside through {@link WakeRequests} ({@code locus energy wake}, another node's failed
 * primary, the NameNode's {@code NodeLossWakeNotifier}). Each source names its reason; the
 * power manager wakes the disks. Called from the power manager's one thread.
 */
final class WakeSources {
  private static final Logger LOG = LoggerFactory.getLogger(WakeSources.class);

  /** Where a wake goes: every backup of this node, or the volumes with these storage IDs. */
  interface Target {
    void wake(String reason, Set<String> storageIds, long now);
  }

  private final DataNode dataNode;
  private final Configuration conf;
  private final EnergySettings settings;
  private final Target target;
  private final PrimaryDrainPredictor predictor;
  private final PrimaryDataProgress progress;
  private final long blockSize;
  private final WakeRequests requests;
  private long lastPrimaryBytes = -1;
  private long predictedWakes;
  private long primaryFailures;
  private FileSystem fs;
  private long nextRequestPoll;

  WakeSources(DataNode dataNode, EnergySettings settings, Target target) {
    this.dataNode = dataNode;
    this.conf = dataNode.getConf();
    this.settings = settings;
    this.target = target;
    this.requests = new WakeRequests(settings.wakeRequestDir(), System.currentTimeMillis());
    if (settings.predictWake()) {
      blockSize = conf.getLongBytes("dfs.blocksize", 128L << 20);
      predictor = new PrimaryDrainPredictor(blockSize, settings.predictLeadMillis());
      progress = new PrimaryDataProgress(dataNode);
    } else {
      blockSize = 0;
      predictor = null;
      progress = null;
    }
  }

  /** Runs every source once; {@code lostPrimaries} are this node's failed primary volumes. */
  void poll(long now, List<String> lostPrimaries, String host) {
    for (String volume : lostPrimaries) {
      primaryFailures++;
      String reason = "primary volume " + volume + " of " + host + " failed";
      target.wake(reason, Set.of(), now);
      requestClusterWideWake(reason);
    }
    predictDrain(now);
    pollRequests(now, host);
  }

  /** Seed §4.3.3: wake the backups when the last primary block is being fetched. */
  private void predictDrain(long now) {
    if (predictor == null) {
      return;
    }
    long bytesRead = progress.bytesRead();
    if (bytesRead < 0) {
      return;
    }
    long primaryBytes = progress.primaryBytes();
    // a new phase when at least a block of new data arrived; small files written during a
    // job (staging, history) do not restart it
    if (lastPrimaryBytes < 0 || Math.abs(primaryBytes - lastPrimaryBytes) >= blockSize) {
      lastPrimaryBytes = primaryBytes;
      predictor.newPhase(bytesRead);
    } else if (predictor.shouldWake(now, bytesRead, primaryBytes)) {
      predictedWakes++;
      target.wake("prediction: this node's primary data is drained within the spin-up lead"
          + " time", Set.of(), now);
    }
  }

  /**
   * The replicas of a failed primary's blocks are backups on other nodes, and re-replication
   * reads them: ask every node to wake its backups instead of letting each read wait.
   */
  private void requestClusterWideWake(String reason) {
    try {
      WakeRequests.request(client(), conf, WakeRequests.ALL, reason);
      LOG.warn("{}: asked every DataNode to wake its backup disks", reason);
    } catch (IOException e) {
      LOG.error("{}: cannot ask other DataNodes to wake their backups: {}", reason,
          e.getMessage());
    }
  }

  /** Requests are polled once a second. */
  private void pollRequests(long now, String host) {
    if (now < nextRequestPoll) {
      return;
    }
    nextRequestPoll = now + 1000;
    try {
      for (WakeRequests.Request request : requests.pending(client(), host)) {
        target.wake(request.reason(), request.storageIds(), now);
      }
    } catch (IOException e) {
      LOG.debug("Cannot read wake requests: {}", e.getMessage());
    }
  }

  private FileSystem client() throws IOException {
    if (fs == null) {
      fs = FileSystem.newInstance(FileSystem.getDefaultUri(conf), conf);
    }
    return fs;
  }

  long predictedWakes() {
    return predictedWakes;
  }

  long primaryFailures() {
    return primaryFailures;
  }

  void close() {
    if (fs != null) {
      try {
        fs.close();
      } catch (IOException e) {
        LOG.debug("Closing the wake-request client: {}", e.getMessage());
      }
    }
  }
}
