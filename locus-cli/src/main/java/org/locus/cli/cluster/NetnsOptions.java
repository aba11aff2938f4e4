package org.locus.cli.cluster;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.locus.cli.command.UsageException;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DiskModel;
import org.locus.netns.MetadataLayout;
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
    options.addOption(Option.builder().longOpt("replicated-volume").hasArg().argName("TYPE")
        .desc("--netns: one more DataNode volume per node of this storage type, a MorphStore"
            + " mount mirroring two disks (BoostDFS REPLICATED storage; boost's default type:"
            + " NVDIMM)").build());
    options.addOption(Option.builder().longOpt("metadata").hasArg().argName("LAYOUT")
        .desc("--netns: where the namespace lives: master (one NameNode on the master,"
            + " default) or sdp (a NameNode per node for its own partition, hdfs://nsK on"
            + " nodeK; HDFS federation; docs/ndcoupling.md) or fatbtree (sdp plus the"
            + " Fat-Btree path index in every NameNode)").build());
    options.addOption(Option.builder().longOpt("daemon-users")
        .desc("--netns: run HDFS's daemons as hdfs, YARN's as yarn and the JobHistory server as"
            + " mapred (accounts made by scripts/setup), the zone hook through a set-user-ID"
            + " locus-priv; --dir must lie in root-only directories; see docs/security.md")
        .build());
    options.addOption(Option.builder().longOpt("disk-size").hasArg().argName("SIZE")
        .desc("--netns: size of each node disk (loop device), e.g. 2g (default)").build());
    options.addOption(Option.builder().longOpt("disk-model").hasArg().argName("MODEL")
        .desc("--netns: what each node disk behaves like: none (a loop device over an image,"
            + " default) or hdd (the image served by zonedisk's model of a Seagate ES.3"
            + " ST4000NM0033: seeks, rotation, read-ahead; simulated hardware, under the"
            + " throttles; docs/netns.md)").build());
  }

  /** The options that only mean something with {@code --netns}. */
  static final List<String> NETNS_ONLY = List.of("link", "disk-read", "disk-write", "ssd-read",
      "ssd-write", "node-memory", "node-cpus", "replicated-volume", "disk-size", "metadata",
      "daemon-users", "disk-model");

  /**
   * @throws UsageException naming the first netns-only option of an embedded
   *     {@code cluster up} line (it would be ignored: the embedded cluster has no links,
   *     devices or cgroups to shape)
   */
  static void refuseWithoutNetns(CommandLine line) throws UsageException {
    for (String option : NETNS_ONLY) {
      if (line.hasOption(option)) {
        throw new UsageException("--" + option + " needs --netns (the embedded cluster runs in"
            + " one JVM, with no links, devices or cgroups of its own to shape)");
      }
    }
  }

  /** @return the netns spec of a parsed {@code cluster up --netns} line */
  static NetnsClusterSpec from(CommandLine line, ClusterSpec base, FeatureCatalog catalog,
      File distLib, ClusterLayout layout) throws UsageException {
    Map<String, String> keys = new LinkedHashMap<>();
    Configuration featureKeys = catalog.keysOf(base.features());
    for (Map.Entry<String, String> e : featureKeys) {
      keys.put(e.getKey(), featureKeys.getRaw(e.getKey()));
    }
    keys.putAll(base.extraKeys());
    MetadataLayout metadata;
    try {
      metadata = MetadataLayout.of("--metadata",
          line.getOptionValue("metadata", MetadataLayout.MASTER.word()));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    FeatureDefaults.fill(base.features(), keys, ClusterLayout.workers(base.nodes()).stream()
        .map(layout::address).toList(), metadata.coupled());
    try {
      String diskRead = line.getOptionValue("disk-read", "none");
      String diskWrite = line.getOptionValue("disk-write", "none");
      return NetnsClusterSpec.builder(base.nodes(), distLib)
          .yarn(base.yarn())
          .link(Rate.linkBitsPerSecond("link", line.getOptionValue("link", "none")))
          .disk(Rate.diskBytesPerSecond("disk-read", diskRead),
              Rate.diskBytesPerSecond("disk-write", diskWrite))
          .ssd(Rate.diskBytesPerSecond("ssd-read", line.getOptionValue("ssd-read", diskRead)),
              Rate.diskBytesPerSecond("ssd-write", line.getOptionValue("ssd-write", diskWrite)))
          .nodeMemory(size("node-memory", line.getOptionValue("node-memory", "2g")))
          .nodeCpus(NodeCpus.parse("node-cpus", line.getOptionValue("node-cpus", "none")))
          .diskSize(size("disk-size", line.getOptionValue("disk-size", "2g")))
          .volumes(base.volumes().stream().map(StorageType::name).toList())
          .replicatedVolume(replicatedVolume(line.getOptionValue("replicated-volume")))
          .keys(keys)
          .metadata(metadata)
          .daemonUsers(line.hasOption("daemon-users"))
          .diskModel(DiskModel.of("--disk-model", line.getOptionValue("disk-model",
              DiskModel.NONE.word())))
          .build();
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** @return the storage type name of {@code --replicated-volume}, empty when absent */
  static String replicatedVolume(String text) throws UsageException {
    if (text == null) {
      return "";
    }
    List<String> persistent = java.util.Arrays.stream(StorageType.values())
        .filter(t -> !t.isTransient()).map(StorageType::name).toList();
    String name = text.trim().toUpperCase(java.util.Locale.ROOT);
    if (!persistent.contains(name)) {
      throw new UsageException("unknown storage type '" + text + "' for --replicated-volume;"
          + " one of " + String.join(", ", persistent));
    }
    return name;
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
