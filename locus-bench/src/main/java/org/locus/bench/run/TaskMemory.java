package org.locus.bench.run;

import org.apache.hadoop.conf.Configuration;
import org.locus.kit.SmallClusterTuning;

/**
 * The container sizes a bench asks YARN for: a map task's and the MapReduce AM's, as job keys
 * set on the client's configuration before submission. Zero keeps the cluster's own setting.
 *
 * <p>Sizing them lets a bench decide how many tasks share a node. With one map container per
 * node the AM would otherwise take one node's only container, and the blocks stored there
 * could not be read by a map on that node; a node whose containers fit exactly one map plus
 * the AM runs one map everywhere.
 *
 * <p>YARN's scheduler rounds every request up to a multiple of its smallest allocation
 * ({@code yarn.scheduler.minimum-allocation-mb}, 256 MiB on the netns cluster):
 * a 640 MiB map would get 768 MiB, and a node sized for "640 + 384" would not fit the AM beside
 * a map. Sizes are therefore taken only in whole multiples of it, so that what the report says
 * the jobs asked for is what they were granted.
 *
 * <p>The task JVM's heap is set to three quarters of its container (a little below Hadoop's own
 * ratio for a heap it sizes, {@code mapreduce.job.heap.memory-mb.ratio} = 0.8), leaving room
 * for the JVM's own memory so that the NodeManager's physical-memory check does not kill it;
 * the other JVM options already configured are kept.
 *
 * @param mapBytes a map container, or 0
 * @param amBytes the MapReduce AM's container, or 0
 */
public record TaskMemory(long mapBytes, long amBytes) {
  private static final int MIN_MIB = SmallClusterTuning.MIN_ALLOCATION_MIB;
  /** YARN's smallest allocation on the netns cluster, and a JVM that can run a task. */
  private static final long MIN_BYTES = (long) MIN_MIB << 20;

  private static final String MAP_MB = "mapreduce.map.memory.mb";
  private static final String MAP_OPTS = "mapreduce.map.java.opts";
  private static final String AM_MB = "yarn.app.mapreduce.am.resource.mb";
  private static final String AM_OPTS = "yarn.app.mapreduce.am.command-opts";

  public TaskMemory {
    check("--map-memory", mapBytes);
    check("--am-memory", amBytes);
  }

  private static void check(String option, long bytes) {
    if (bytes == 0) {
      return;
    }
    if (bytes < MIN_BYTES) {
      throw new IllegalArgumentException(option + " needs at least " + MIN_MIB
          + "m (YARN's smallest container here), got " + bytes + " bytes");
    }
    if (bytes % MIN_BYTES != 0) {
      long granted = (bytes / MIN_BYTES + 1) * MIN_BYTES;
      throw new IllegalArgumentException(option + " " + describeBytes(bytes) + " is not a"
          + " multiple of " + MIN_MIB + "m: YARN rounds container requests up to one"
          + " (yarn.scheduler.minimum-allocation-mb), so the task would get "
          + describeBytes(granted) + "; ask for " + describeBytes(granted - MIN_BYTES)
          + " or " + describeBytes(granted));
    }
  }

  private static String describeBytes(long bytes) {
    return bytes % (1L << 20) == 0 ? (bytes >> 20) + "m" : bytes + " bytes";
  }

  /**
   * @param containerBytes what a node's NodeManager offers its containers
   * @return how many maps run at once on a node without the AM, and on the AM's node, e.g.
   *     {@code 1 map at a time per node, 1 beside the AM}
   */
  public String mapsPerNode(long containerBytes) {
    long fallback = (long) SmallClusterTuning.TASK_CONTAINER_MIB << 20;
    long map = mapBytes == 0 ? fallback : mapBytes;
    long am = amBytes == 0 ? fallback : amBytes;
    long plain = containerBytes / map;
    long besideAm = Math.max(0, containerBytes - am) / map;
    return plain + (plain == 1 ? " map" : " maps") + " at a time per node, " + besideAm
        + " beside the AM";
  }

  /**
   * Refuses sizes that no node could run.
   *
   * @param containerBytes what a node's NodeManager offers its containers
   * @throws IllegalArgumentException naming the option that does not fit
   */
  public void checkFits(long containerBytes) {
    String offer = " but a node offers its containers " + (containerBytes >> 20)
        + " MiB (--node-memory less its daemons')";
    if (mapBytes > containerBytes) {
      throw new IllegalArgumentException("--map-memory " + (mapBytes >> 20) + "m" + offer);
    }
    if (amBytes > containerBytes) {
      throw new IllegalArgumentException("--am-memory " + (amBytes >> 20) + "m" + offer);
    }
  }

  /** Sets the job keys of each size given on {@code conf}. */
  public void applyTo(Configuration conf) {
    if (mapBytes > 0) {
      conf.set(MAP_MB, Long.toString(mapBytes >> 20));
      conf.set(MAP_OPTS, withHeap(conf.get(MAP_OPTS, ""), mapBytes));
    }
    if (amBytes > 0) {
      conf.set(AM_MB, Long.toString(amBytes >> 20));
      conf.set(AM_OPTS, withHeap(conf.get(AM_OPTS, ""), amBytes));
    }
  }

  /** @return how the sizes read in a report, e.g. {@code map 640 MiB, AM 384 MiB} */
  public String describe() {
    return "map " + size(mapBytes) + ", AM " + size(amBytes);
  }

  private static String size(long bytes) {
    return bytes == 0 ? "the cluster's default" : (bytes >> 20) + " MiB";
  }

  private static String withHeap(String opts, long containerBytes) {
    String heap = "-Xmx" + (containerBytes * 3 / 4 >> 20) + "m";
    String kept = opts.replaceAll("(^|\\s)-Xmx\\S*", " ").trim().replaceAll("\\s+", " ");
    return kept.isEmpty() ? heap : heap + " " + kept;
  }
}
