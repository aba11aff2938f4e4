package org.locus.cli.cluster;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.locus.cli.command.KeyValueOption;
import org.locus.cli.command.UsageException;
import org.locus.kit.LocusMiniCluster;
import org.locus.kit.NodeAddressPlan;

/**
 * What {@code locus cluster up} (and the demo) asks for: node count, volume types, YARN,
 * features and extra keys. Parsed and checked in the foreground, then handed to the background
 * cluster process as the same arguments.
 *
 * @param nodes number of nodes
 * @param volumes storage type of each DataNode volume
 * @param yarn whether YARN and MapReduce run too
 * @param features feature key sets to apply, in order
 * @param extraKeys {@code --conf key=value} settings, applied last
 */
public record ClusterSpec(int nodes, List<StorageType> volumes, boolean yarn,
    List<String> features, Map<String, String> extraKeys) {

  /** Volume types an embedded DataNode can have. */
  static final Set<StorageType> VOLUME_TYPES =
      Set.of(StorageType.DISK, StorageType.SSD, StorageType.ARCHIVE, StorageType.NVDIMM);

  public ClusterSpec {
    volumes = List.copyOf(volumes);
    features = List.copyOf(features);
    extraKeys = Map.copyOf(extraKeys);
  }

  static Options options() {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
        .desc("directory the cluster lives in (conf/, logs/, data/); required").build());
    options.addOption(Option.builder().longOpt("nodes").hasArg().argName("N")
        .desc("number of nodes, 1.." + NodeAddressPlan.MAX_NODES + " (default 4)").build());
    options.addOption(Option.builder().longOpt("volumes").hasArg().argName("TYPES")
        .desc("storage type of each DataNode volume, comma separated, from DISK, SSD, ARCHIVE,"
            + " NVDIMM (default DISK)").build());
    options.addOption(Option.builder().longOpt("yarn")
        .desc("also run YARN and MapReduce (ResourceManager, NodeManagers, history server)")
        .build());
    options.addOption(Option.builder().longOpt("feature").hasArgs().argName("NAME")
        .desc("apply a Locus feature's documented key set from conf/features/NAME.xml;"
            + " repeatable").build());
    options.addOption(Option.builder().longOpt("conf").hasArgs().argName("KEY=VALUE")
        .desc("set a configuration key on every daemon; repeatable, applied last").build());
    return options;
  }

  static ClusterSpec from(CommandLine line) throws UsageException {
    int nodes = parseNodes(line.getOptionValue("nodes", "4"));
    List<StorageType> volumes = parseVolumes(line.getOptionValue("volumes", "DISK"));
    List<String> features = new ArrayList<>();
    if (line.hasOption("feature")) {
      features.addAll(List.of(line.getOptionValues("feature")));
    }
    Map<String, String> keys = KeyValueOption.pairs(line, "conf");
    return new ClusterSpec(nodes, volumes, line.hasOption("yarn"), features, keys);
  }

  private static int parseNodes(String text) throws UsageException {
    try {
      int n = Integer.parseInt(text.trim());
      if (n < 1 || n > NodeAddressPlan.MAX_NODES) {
        throw new UsageException("--nodes must be 1.." + NodeAddressPlan.MAX_NODES + ", got " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException("--nodes needs a whole number, got '" + text + "'");
    }
  }

  private static List<StorageType> parseVolumes(String text) throws UsageException {
    List<StorageType> types = new ArrayList<>();
    for (String word : text.split(",")) {
      String name = word.trim().toUpperCase(Locale.ROOT);
      StorageType type = null;
      for (StorageType candidate : VOLUME_TYPES) {
        if (candidate.name().equals(name)) {
          type = candidate;
        }
      }
      if (type == null) {
        throw new UsageException("unknown volume type '" + word.trim()
            + "'; choose from DISK, SSD, ARCHIVE, NVDIMM");
      }
      types.add(type);
    }
    return types;
  }

  /** @return the arguments that make {@link #from} produce this spec again */
  List<String> toArguments() {
    List<String> args = new ArrayList<>();
    args.add("--nodes");
    args.add(Integer.toString(nodes));
    args.add("--volumes");
    args.add(String.join(",", volumes.stream().map(StorageType::name).toList()));
    if (yarn) {
      args.add("--yarn");
    }
    for (String feature : features) {
      args.add("--feature");
      args.add(feature);
    }
    for (Map.Entry<String, String> e : extraKeys.entrySet()) {
      args.add("--conf");
      args.add(e.getKey() + "=" + e.getValue());
    }
    return args;
  }

  /**
   * Checks every feature name against the catalogue and that the features can run together;
   * an unknown name or a conflicting key is a usage error.
   */
  void checkFeatures(FeatureCatalog catalog) throws UsageException {
    catalog.keysOf(features);
  }

  /** @return a cluster builder with this spec, its features' keys and then the extra keys */
  public LocusMiniCluster.Builder toBuilder(File baseDir, FeatureCatalog catalog)
      throws UsageException {
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(baseDir)
        .nodes(nodes)
        .volumes(volumes.toArray(new StorageType[0]))
        .yarn(yarn);
    builder.setAll(catalog.keysOf(features));
    Map<String, String> keys = new java.util.LinkedHashMap<>(extraKeys);
    List<String> hosts = new ArrayList<>();
    for (int node = 1; node <= nodes; node++) {
      hosts.add(org.locus.kit.NodeAddressPlan.hostOf(node));
    }
    try {
      FeatureDefaults.fillEmbedded(features, keys, hosts);
    } catch (java.io.IOException e) {
      throw new UsageException("no free port for the gear services: " + e.getMessage());
    }
    keys.forEach(builder::set);
    return builder;
  }
}
