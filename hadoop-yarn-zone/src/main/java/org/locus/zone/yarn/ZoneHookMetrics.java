package org.locus.zone.yarn;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hook's counters as a metrics2 source named {@value #SOURCE} (JMX:
 * {@code Hadoop:service=NodeManager,name=LocusZone}). The counters work whether or not the
 * source could be registered.
 */
final class ZoneHookMetrics implements MetricsSource {

  static final String SOURCE = "LocusZone";

  private static final Logger LOG = LoggerFactory.getLogger(ZoneHookMetrics.class);

  private final MetricsRegistry registry = new MetricsRegistry(SOURCE)
      .setContext("yarn");
  final MutableCounterLong switches =
      registry.newCounter("ZoneSwitches", "Times an area was set for an application", 0L);
  final MutableCounterLong releases =
      registry.newCounter("ZoneReleases", "Times the reservation was released", 0L);
  final MutableCounterLong expansions = registry.newCounter("ZoneExpansions",
      "Times the online monitor grew a held area that ran short", 0L);
  final MutableCounterLong failures = registry.newCounter("ZoneFailures",
      "Failed zonectl, mount or umount runs and configuration errors", 0L);
  private boolean registered;

  void register() {
    try {
      DefaultMetricsSystem.instance().register(SOURCE, "Locus zone placement hook", this);
      registered = true;
    } catch (MetricsException e) {
      LOG.warn("Zone hook metrics not published: {}", e.getMessage());
    }
  }

  void unregister() {
    if (registered) {
      MetricsSystem ms = DefaultMetricsSystem.instance();
      ms.unregisterSource(SOURCE);
      registered = false;
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    registry.snapshot(collector.addRecord(registry.info()), all);
  }
}
