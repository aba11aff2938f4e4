package org.locus.bench.metadata;

import java.util.Locale;

/**
 * One phase of one run of one layout at one cluster size, summed over the nodes' clients:
 * operations, and the wall-clock span from the first client's start to the last one's end.
 */
public record MetadataSample(int nodes, MetadataLayoutUnderTest layout, int run, String phase,
    long ops, long startMs, long endMs) {
  static final String TSV_HEADER = "nodes\tlayout\trun\tphase\tops\tstart_ms\tend_ms\tops_per_s";

  /** @return operations per second over the phase's span */
  public double opsPerSecond() {
    return ops * 1000.0 / Math.max(1, endMs - startMs);
  }

  String tsv() {
    return String.format(Locale.ROOT, "%d\t%s\t%d\t%s\t%d\t%d\t%d\t%.1f", nodes, layout.word(),
        run, phase, ops, startMs, endMs, opsPerSecond());
  }
}
