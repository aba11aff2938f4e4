package org.locus.energy.datanode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * What the wake-up predictor needs to know about one DataNode: the bytes stored on its primary
 * volumes, and the bytes it has served so far (the stock {@code DataNodeActivity-<host>-<port>}
 * counter {@code BytesRead}, read from a snapshot of that metrics source because the DataNode
 * offers no getter).
 *
 * <p>Primary bytes come from the per-volume block-pool usage the DataNode keeps for its
 * heartbeats ({@link FsDatasetSpi#getStorageReports}): a cached counter per volume, so a poll
 * costs O(volumes), not O(replicas) — walking the finalized replicas copies the whole replica
 * map under the dataset lock. That usage counts checksum (meta) files too; they are taken out
 * at the configured bytes per checksum (4-byte CRCs), so the figure is the data bytes to within
 * the meta files' headers and any replica still being written.
 */
public final class PrimaryDataProgress {
  private static final int CHECKSUM_BYTES = 4;
  private final DataNode dataNode;
  private final int bytesPerChecksum;

  PrimaryDataProgress(DataNode dataNode) {
    this.dataNode = dataNode;
    this.bytesPerChecksum = dataNode.getConf().getInt("dfs.bytes-per-checksum", 512);
  }

  /** @return data bytes on non-ARCHIVE volumes, from the per-volume usage counters */
  long primaryBytes() {
    return primaryBytes(dataNode.getFSDataset(), bytesPerChecksum);
  }

  /** @return data bytes on the dataset's non-ARCHIVE volumes, over its volumes' block pools */
  static long primaryBytes(FsDatasetSpi<?> dataset, int bytesPerChecksum) {
    Set<String> blockPools = new TreeSet<>();
    try (FsDatasetSpi.FsVolumeReferences volumes = dataset.getFsVolumeReferences()) {
      for (FsVolumeSpi volume : volumes) {
        for (String bpid : volume.getBlockPoolList()) {
          blockPools.add(bpid);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release volume references", e);
    }
    return primaryBytes(dataset, blockPools, bytesPerChecksum);
  }

  /**
   * @return data bytes on the dataset's non-ARCHIVE volumes in these block pools; O(volumes ×
   *     block pools), whatever the replica count
   */
  public static long primaryBytes(FsDatasetSpi<?> dataset, Collection<String> blockPools,
      int bytesPerChecksum) {
    long used = 0;
    try {
      for (String bpid : blockPools) {
        for (StorageReport report : dataset.getStorageReports(bpid)) {
          if (!report.isFailed()
              && report.getStorage().getStorageType() != StorageType.ARCHIVE) {
            used += report.getBlockPoolUsed();
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the volumes' usage", e);
    }
    return used / (bytesPerChecksum + CHECKSUM_BYTES) * bytesPerChecksum;
  }

  /** @return bytes this DataNode has served to readers, or -1 before its metrics exist */
  long bytesRead() {
    MetricsSource source = DefaultMetricsSystem.instance().getSource(
        "DataNodeActivity-" + dataNode.getDisplayName().replace(':', '-'));
    if (source == null) {
      return -1;
    }
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    source.getMetrics(collector, true);
    for (MetricsRecord record : collector.getRecords()) {
      for (AbstractMetric m : record.metrics()) {
        if ("BytesRead".equals(m.name())) {
          return m.value().longValue();
        }
      }
    }
    return -1;
  }
}
