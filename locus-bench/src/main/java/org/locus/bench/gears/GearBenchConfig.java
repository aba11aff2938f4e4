package org.locus.bench.gears;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One configuration of the gear bench (seed 004 Table 1): where the metadata lives, how gear-up
 * issues its commands and moves its blocks, and which HDFS knobs the cluster runs with.
 * NormalHDFS ({@code normal}) is one NameNode with sequential issuance and transfer; SSS, SBS
 * and SBB are coupled nodes (a NameNode per node, static directory partitioning as HDFS
 * federation) with sequential or batch issuance and transfer; FBB is SBB with the paths placed
 * and resolved through the Fat-Btree index (seed 004 §4.2.2).
 *
 * @param name the name on the command line and in the report
 * @param issuance sequential or batch
 * @param transfer sequential or batch
 * @param knobs {@code seed} (heartbeat 1 s, 100 replication streams; seed Table 4) or
 *     {@code stock} (Hadoop 3.5.0's defaults)
 * @param metadata {@code master} (one NameNode), {@code sdp} (a NameNode per node) or
 *     {@code fatbtree} (a NameNode per node and the Fat-Btree index in each)
 */
public record GearBenchConfig(String name, String issuance, String transfer, String knobs,
    String metadata) {
  /** The configurations by name, in report order. */
  public static final Map<String, GearBenchConfig> ALL = all();

  private static Map<String, GearBenchConfig> all() {
    Map<String, GearBenchConfig> all = new LinkedHashMap<>();
    for (GearBenchConfig c : List.of(
        new GearBenchConfig("normal", "sequential", "sequential", "seed", "master"),
        new GearBenchConfig("batch-seq", "batch", "sequential", "seed", "master"),
        new GearBenchConfig("batch-batch", "batch", "batch", "seed", "master"),
        new GearBenchConfig("sss", "sequential", "sequential", "seed", "sdp"),
        new GearBenchConfig("sbs", "batch", "sequential", "seed", "sdp"),
        new GearBenchConfig("sbb", "batch", "batch", "seed", "sdp"),
        new GearBenchConfig("fbb", "batch", "batch", "seed", "fatbtree"),
        new GearBenchConfig("normal-stock", "sequential", "sequential", "stock", "master"))) {
      all.put(c.name(), c);
    }
    return java.util.Collections.unmodifiableMap(all);
  }

  /** @return the configurations named in a comma-separated list, checked */
  public static List<GearBenchConfig> parse(String names) {
    List<GearBenchConfig> configs = new ArrayList<>();
    for (String name : names.split(",")) {
      GearBenchConfig config = ALL.get(name.trim());
      if (config == null) {
        throw new IllegalArgumentException("--configs: unknown configuration '" + name.trim()
            + "'; known: " + String.join(",", ALL.keySet()));
      }
      if (!configs.contains(config)) {
        configs.add(config);
      }
    }
    return configs;
  }

  /** @return whether this configuration runs on coupled nodes */
  public boolean coupled() {
    return !metadata.equals("master");
  }

  /** @return whether this configuration writes its files through the Fat-Btree index */
  public boolean indexed() {
    return metadata.equals("fatbtree");
  }

  /** @return the HDFS keys of these knobs */
  public static Map<String, String> knobKeys(String knobs) {
    Map<String, String> keys = new LinkedHashMap<>();
    if (knobs.equals("seed")) {
      keys.put("dfs.heartbeat.interval", "1");
      keys.put("dfs.namenode.replication.max-streams", "100");
      keys.put("dfs.namenode.replication.max-streams-hard-limit", "100");
    } else {
      keys.put("dfs.heartbeat.interval", "3");
      keys.put("dfs.namenode.replication.max-streams", "2");
      keys.put("dfs.namenode.replication.max-streams-hard-limit", "4");
      keys.put("dfs.namenode.redundancy.interval.seconds", "3");
    }
    return keys;
  }
}
