package org.locus.bench.boost;

import java.io.File;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.locus.bench.run.TaskMemory;
import org.locus.netns.DiskModel;
import org.locus.netns.NetnsClusterSpec;

/**
 * What {@code locus bench boost} is asked to measure.
 *
 * @param suite the bench suite whose jobs run (e.g. {@code puma-small})
 * @param jobs the suite's jobs to run: disk-bound and compute-bound ones
 * @param runs measured runs per job and layout
 * @param warmups unrecorded runs per job and layout before the measured ones
 * @param interleave both layouts' clusters up at once, their runs alternating
 * @param resume keep the runs an earlier {@code results.json} in {@code out} has, do only the
 *     others (none: only the report is written again)
 * @param copies HDFS's replication; BoostDFS's SUPERLOCAL copies (the intra-node mirror
 *     counted) are the same at the same capacity, one more at the same availability
 * @param comparison which of the seed's two comparisons the layouts make
 * @param diskRate bytes/s each device reads and writes
 * @param diskModel what each device is below its throttle: a plain loop device or the emulated
 *     HDD ({@code --disk-model hdd})
 * @param taskMemory the map and AM containers both layouts' jobs ask for
 * @param jobKeys further job keys both layouts' jobs are submitted with
 * @param boostKeys {@code conf/features/boost.xml}'s keys
 * @param home the Locus checkout the dist bundle is written from
 */
public record BoostBenchRequest(String suite, List<String> jobs, int runs, int warmups,
    boolean interleave, boolean resume, int nodes, int copies, Comparison comparison,
    long diskRate, DiskModel diskModel, long nodeMemoryBytes, long diskBytes, long blockBytes, TaskMemory taskMemory,
    Map<String, String> jobKeys, Map<String, String> boostKeys, File out, File home) {
  public BoostBenchRequest {
    jobs = List.copyOf(jobs);
    diskModel = diskModel == null ? DiskModel.NONE : diskModel;
    boostKeys = Map.copyOf(boostKeys);
    jobKeys = Collections.unmodifiableMap(new LinkedHashMap<>(jobKeys));
    taskMemory.checkFits(containerBytes(nodeMemoryBytes));
    int most = comparison == Comparison.CAPACITY ? nodes + 1 : nodes;
    if (copies < 3 || copies > most) {
      throw new IllegalArgumentException("--copies " + copies + " needs 3.." + most
          + " with --nodes " + nodes + " and --compare " + comparison.label() + " (BoostDFS: one"
          + " REPLICATED replica of 2 copies and " + (comparison == Comparison.CAPACITY
              ? "copies - 2" : "copies - 1") + " plain ones on other nodes)");
    }
  }

  /** The seed's two ways of matching HDFS with r copies (chapter 4, Eq. 4.4). */
  public enum Comparison {
    /** BoostDFS keeps r device copies too: r − 1 nodes, one of them holding two copies. */
    CAPACITY("capacity"),
    /** BoostDFS keeps r + 1: the same r nodes as HDFS, one of them holding two copies. */
    AVAILABILITY("availability");

    private final String label;

    Comparison(String label) {
      this.label = label;
    }

    /** @return the name {@code --compare} takes */
    public String label() {
      return label;
    }

    /** @return the comparison named {@code label} */
    public static Comparison of(String label) {
      for (Comparison c : values()) {
        if (c.label.equals(label)) {
          return c;
        }
      }
      throw new IllegalArgumentException("--compare takes capacity or availability, not '"
          + label + "'");
    }
  }

  /** @return BoostDFS's SUPERLOCAL copies of every block, the intra-node mirror counted */
  public int boostCopies() {
    return comparison == Comparison.CAPACITY ? copies : copies + 1;
  }

  /** @return what a node's NodeManager offers its containers */
  public long containerBytes() {
    return containerBytes(nodeMemoryBytes);
  }

  private static long containerBytes(long nodeMemoryBytes) {
    return nodeMemoryBytes - NetnsClusterSpec.NODE_DAEMONS_BYTES;
  }
}
