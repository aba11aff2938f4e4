package org.locus.energy.datanode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.ReplicaInfo;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * What the wake-up predictor needs to know about one DataNode: the bytes of finalized replicas
 * on its primary volumes, and the bytes it has served so far (the stock
 * {@code DataNodeActivity-<host>-<port>} counter {@code BytesRead}, read from a snapshot of
 * that metrics source because the DataNode offers no getter).
 */
final class PrimaryDataProgress {
  private final DataNode dataNode;

  PrimaryDataProgress(DataNode dataNode) {
    this.dataNode = dataNode;
  }

  /** @return bytes of finalized replicas on non-ARCHIVE volumes */
  long primaryBytes() {
    FsDatasetSpi<?> dataset = dataNode.getFSDataset();
    Set<String> blockPools = new TreeSet<>();
    try (FsDatasetSpi.FsVolumeReferences volumes = dataset.getFsVolumeReferences()) {
      for (FsVolumeSpi volume : volumes) {
        blockPools.addAll(List.of(volume.getBlockPoolList()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release volume references", e);
    }
    long bytes = 0;
    for (String bpid : blockPools) {
      for (ReplicaInfo replica : dataset.getFinalizedBlocks(bpid)) {
        if (replica.getVolume().getStorageType() != StorageType.ARCHIVE) {
          bytes += replica.getNumBytes();
        }
      }
    }
    return bytes;
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
