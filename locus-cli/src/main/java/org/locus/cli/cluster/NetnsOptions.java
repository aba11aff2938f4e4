package org.locus.cli.cluster;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.locus.cli.UsageException;
import org.locus.netns.NetnsClusterSpec;
import org.locus.netns.NodeCpus;
import org.locus.netns.Rate;
import org.locus.netns.Size;

/**
 * The options of {@code locus cluster up --netns} and their translation into a
 * {@link NetnsClusterSpec}; the spec travels to the supervisor as {@code DIR/netns.spec}
 * ({@link org.locus.netns.NetnsSpecFile}).
 */
public final class NetnsOptions {
  private NetnsOptions() {
  }

  static void addTo(Options options) {
    options.addOption(Option.builder().longOpt("netns")
        .desc("run stock Hadoop daemons as processes, one network namespace per node"
            + " (needs root); see docs/netns.md").build());
    options.addOption(Option.builder().longOpt("link").hasArg().argName("RATE")
        .desc("--netns: each node's link rate both ways, e.g. 10mbit, or none (default)")
        .build());
    options.addOption(Option.builder().longOpt("disk-read").hasArg().argName("RATE")
        .desc("--netns: read throttle of each node device, e.g. 20MB/s, or none (default)")
        .build());
    options.addOption(Option.builder().longOpt("disk-write").hasArg().argName("RATE")
        .desc("--netns: write throttle of each node device, e.g. 20MB/s, or none (default)")
        .build());
    options.addOption(Option.builder().longOpt("ssd-read").hasArg().argName("RATE")
        .desc("--netns: read throttle of each SSD volume's device (default: as --disk-read)")
        .build());
    options.addOption(Option.builder().longOpt("ssd-write").hasArg().argName("RATE")
        .desc("--netns: write throttle of each SSD volume's device (default: as --disk-write)")
        .build());
    options.addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
        .desc("--netns: memory of a node (daemons, tasks, page cache), e.g. 2g (default)")
        .build());
    options.addOption(Option.builder().longOpt("node-cpus").hasArg().argName("CORES")
        .desc("--netns: CPU of a node in cores (cgroup quota), e.g. 0.5 for a weak core, or"
            + " none (default)").build());
    options.addOption(Option.builder().longOpt("disk-size").hasArg().argName("SIZE")
        .desc("--netns: size of each node disk (loop device), e.g. 2g (default)").build());
  }

  /** @return the netns spec of a parsed {@code cluster up --netns} line */
  static NetnsClusterSpec from(CommandLine line, ClusterSpec base, FeatureCatalog catalog,
      File distLib) throws UsageException {
    Map<String, String> keys = new LinkedHashMap<>();
    Configuration featureKeys = catalog.keysOf(base.features());
    for (Map.Entry<String, String> e : featureKeys) {
      keys.put(e.getKey(), featureKeys.getRaw(e.getKey()));
    }
    keys.putAll(base.extraKeys());
    try {
      String diskRead = line.getOptionValue("disk-read", "none");
      String diskWrite = line.getOptionValue("disk-write", "none");
      return new NetnsClusterSpec(base.nodes(), base.yarn(),
          Rate.linkBitsPerSecond("link", line.getOptionValue("link", "none")),
          Rate.diskBytesPerSecond("disk-read", diskRead),
          Rate.diskBytesPerSecond("disk-write", diskWrite),
          Rate.diskBytesPerSecond("ssd-read", line.getOptionValue("ssd-read", diskRead)),
          Rate.diskBytesPerSecond("ssd-write", line.getOptionValue("ssd-write", diskWrite)),
          size("node-memory", line.getOptionValue("node-memory", "2g")),
          NodeCpus.parse("node-cpus", line.getOptionValue("node-cpus", "none")),
          size("disk-size", line.getOptionValue("disk-size", "2g")),
          base.volumes().stream().map(StorageType::name).toList(), keys, distLib);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** Parses {@code 512m} / {@code 2g} ({@link Size}), naming the option when it is not that. */
  public static long size(String option, String text) throws UsageException {
    try {
      return Size.bytes(option, text);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }
}
