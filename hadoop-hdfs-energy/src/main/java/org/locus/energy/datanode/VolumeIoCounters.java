package org.locus.energy.datanode;

import org.apache.hadoop.hdfs.server.datanode.fsdataset.DataNodeVolumeMetrics;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * Cumulative read and write operation counts of one DataNode volume, from the stock per-volume
 * metrics source ({@code DataNodeVolume-<path>}, filled only when
 * {@code dfs.datanode.fileio.profiling.sampling.percentage} is 100).
 *
 * <p>Why a metrics snapshot: {@code DataNodeVolumeMetrics} exposes per-interval statistics
 * only; the cumulative {@code *NumOps} counters exist only in a snapshot of its source. A
 * snapshot by us or by any sink adds the interval into the same cumulative counter, so both
 * stay correct (only the interval averages other readers see become shorter).
 *
 * @param reads read and transfer (sendfile) operations so far
 * @param writes write, flush and sync operations so far
 */
public record VolumeIoCounters(long reads, long writes) {

  /** @return the volume's counters now, or zeros when its metrics source is not registered */
  public static VolumeIoCounters of(FsVolumeSpi volume) {
    DataNodeVolumeMetrics metrics = volume.getMetrics();
    if (metrics == null) {
      return new VolumeIoCounters(0, 0);
    }
    MetricsSource source = DefaultMetricsSystem.instance().getSource(metrics.name());
    if (source == null) {
      return new VolumeIoCounters(0, 0);
    }
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    source.getMetrics(collector, true);
    long reads = 0;
    long writes = 0;
    for (MetricsRecord record : collector.getRecords()) {
      for (AbstractMetric m : record.metrics()) {
        String name = m.name();
        if (!name.endsWith("NumOps")) {
          continue;
        }
        if (name.startsWith("ReadIo") || name.startsWith("TransferIo")) {
          reads += m.value().longValue();
        } else if (name.startsWith("WriteIo") || name.startsWith("FlushIo")
            || name.startsWith("SyncIo")) {
          writes += m.value().longValue();
        }
      }
    }
    return new VolumeIoCounters(reads, writes);
  }
}
