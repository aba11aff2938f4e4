package org.locus.ndcoupling.namenode;

import java.io.IOException;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.locus.ndcoupling.gear.GearUpReport;

/**
 * The gears' NameNode metrics (metrics2, so JMX and every configured sink see them): the gear,
 * the update log's pending entries and size, gear-ups run and the last one's reflection time.
 */
final class GearMetrics implements MetricsSource {
  /** The metrics2 source and JMX bean name ({@code Hadoop:service=NameNode,name=LocusGears}). */
  static final String SOURCE = "LocusGears";

  private final GearService gears;

  GearMetrics(GearService gears) {
    this.gears = gears;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    long logBytes;
    try {
      logBytes = gears.log().sizeBytes();
    } catch (IOException e) {
      logBytes = -1;
    }
    GearUpReport last = gears.lastReport();
    MetricsRecordBuilder record = collector.addRecord(SOURCE).setContext("dfs");
    record.addGauge(Interns.info("GearLevel", "The gear the cluster is in (0 = lowest)"),
        gears.level());
    record.addGauge(Interns.info("PendingLogEntries",
        "Low-gear writes not yet reflected on their intended nodes"),
        gears.log().pendingCount());
    record.addGauge(Interns.info("LogSizeBytes", "Size of the update log file"), logBytes);
    record.addCounter(Interns.info("GearUps", "Gear-ups started since the NameNode started"),
        gears.gearUps());
    record.addGauge(Interns.info("LastReflectionMillis",
        "The last gear-up's four steps, in milliseconds (0 while none ran)"),
        last == null ? 0 : last.totalMillis());
  }
}
