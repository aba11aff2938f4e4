package org.locus.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.blockmanagement.KeyAwareBlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.RoutingBlockPlacementPolicy;
import org.locus.bench.suite.BenchJob;
import org.locus.jobs.catalog.JobArguments;
import org.locus.kat.hint.KeyHints;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.mapreduce.KeyAwareJobs;
import org.locus.kat.placement.KeyAwarePlacementRule;
import org.locus.kat.placement.PlacementMap;
import org.locus.placement.PlacementConfigKeys;

/**
 * The runs of a suite that KAT makes key-aware. On a cluster that places by key (its keys give the
 * NameNode KAT's placement rule), a job KAT has a hint for reads its generated input imported as a
 * KAT dataset and runs key-aware, as {@code locus job NAME --kat} does (owner-local splits, reducer
 * <i>p</i> on owner <i>p</i>, under the Locus AM): {@code wordcount} (hint {@code wordcount}: a
 * record per word) and {@code grep} (hint {@code grep:REGEX} with the job's own regex). Every other
 * job, and every job on any other cluster, reads the plain input. The import is set-up, as
 * generating the input is: it is not timed, and it is done once per cluster for each (input, hint).
 */
final class KeyAwareRuns {
  private static final int BUCKETS = 64;

  private final Configuration conf;
  private final Path root;
  private final PrintStream progress;
  private final Map<String, Dataset> datasets = new HashMap<>();

  /** A placed dataset and the map its key-aware jobs are configured from. */
  record Dataset(Path path, PlacementMap map) {
    /** The job's arguments with the key-aware preparer. */
    JobArguments arguments(BenchJob job, int reducers) {
      return new JobArguments(job.options(), reducers, j -> {
        KeyAwareJobs.configure(j, path, map);
        return j;
      });
    }
  }

  /**
   * @param conf the cluster's client configuration
   * @param root the bench's directory on the cluster; datasets go to {@code root/kat}
   */
  KeyAwareRuns(Configuration conf, Path root, PrintStream progress) {
    this.conf = conf;
    this.root = root;
    this.progress = progress;
  }

  /**
   * @return whether {@code keys} make the NameNode place KAT datasets by key: its policy is the
   *     placement router with KAT's rule listed, or KAT's own policy name with no rule list
   */
  static boolean placesByKey(Configuration keys) {
    Class<?> policy = keys.getClassByNameOrNull(
        keys.getTrimmed("dfs.block.replicator.classname", ""));
    if (policy == null || !RoutingBlockPlacementPolicy.class.isAssignableFrom(policy)) {
      return false;
    }
    List<String> rules = List.of(keys.getTrimmedStrings(PlacementConfigKeys.RULES));
    return rules.isEmpty() ? policy == KeyAwareBlockPlacementPolicy.class
        : rules.contains(KeyAwarePlacementRule.class.getName());
  }

  /** @return the hint a key-aware run of {@code job} imports its input with, if KAT has one */
  static Optional<String> hintOf(BenchJob job) {
    return switch (job.job()) {
      case "wordcount" -> Optional.of("wordcount");
      case "grep" -> Optional.ofNullable(job.options().get("regex")).map(r -> "grep:" + r);
      default -> Optional.empty();
    };
  }

  /**
   * @return the dataset {@code input} imported with {@code hint}, importing it on first use
   */
  Dataset datasetOf(Path input, String hint) throws IOException {
    String key = input + "|" + hint;
    Dataset known = datasets.get(key);
    if (known != null) {
      return known;
    }
    FileSystem fs = FileSystem.get(conf);
    if (!(fs instanceof DistributedFileSystem dfs)) {
      throw new IOException("a key-aware run needs HDFS, but the cluster's file system is "
          + fs.getUri());
    }
    Path dataset = new Path(root, "kat/" + input.getName() + "-" + datasets.size());
    fs.delete(dataset, true);
    progress.printf("importing %s as KAT dataset %s (hint %s; set-up, not timed)%n", input,
        dataset, hint);
    new KatImporter(dfs, KeyHints.parse(hint, conf), hint, QueueDesign.DISTRIBUTED, BUCKETS,
        p -> { }).run(input, dataset);
    Dataset imported = new Dataset(dataset, PlacementMap.read(fs, dataset));
    datasets.put(key, imported);
    return imported;
  }
}
