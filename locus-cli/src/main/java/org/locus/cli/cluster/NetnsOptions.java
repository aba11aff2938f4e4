package org.locus.cli.cluster;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.locus.cli.UsageException;
import org.locus.netns.NetnsClusterSpec;
import org.locus.netns.Rate;

/**
 * The options of {@code locus cluster up --netns} and their translation into a
 * {@link NetnsClusterSpec}; the spec travels to the supervisor as {@code DIR/netns.spec}.
 */
final class NetnsOptions {
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
    options.addOption(Option.builder().longOpt("node-memory").hasArg().argName("SIZE")
        .desc("--netns: memory of a node (daemons, tasks, page cache), e.g. 2g (default)")
        .build());
    options.addOption(Option.builder().longOpt("disk-size").hasArg().argName("SIZE")
        .desc("--netns: size of each node disk (loop device), e.g. 2g (default)").build());
  }

  /** @return the netns spec of a parsed {@code cluster up --netns} line */
  static NetnsClusterSpec from(CommandLine line, ClusterSpec base, FeatureCatalog catalog,
      File distLib) throws UsageException {
    Map<String, String> keys = new LinkedHashMap<>();
    for (String feature : base.features()) {
      Configuration featureKeys = catalog.keysOf(feature);
      for (Map.Entry<String, String> e : featureKeys) {
        keys.put(e.getKey(), featureKeys.getRaw(e.getKey()));
      }
    }
    keys.putAll(base.extraKeys());
    try {
      return new NetnsClusterSpec(base.nodes(), base.yarn(),
          Rate.linkBitsPerSecond("link", line.getOptionValue("link", "none")),
          Rate.diskBytesPerSecond("disk-read", line.getOptionValue("disk-read", "none")),
          Rate.diskBytesPerSecond("disk-write", line.getOptionValue("disk-write", "none")),
          size("node-memory", line.getOptionValue("node-memory", "2g")),
          size("disk-size", line.getOptionValue("disk-size", "2g")),
          base.volumes().stream().map(StorageType::name).toList(), keys, distLib);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** Parses {@code 512m} / {@code 2g}, naming the option when it is not that. */
  static long size(String option, String text) throws UsageException {
    String word = text.trim().toLowerCase(Locale.ROOT);
    if (!word.matches("[1-9][0-9]*[mg]")) {
      throw new UsageException("--" + option + " needs a size like 512m or 2g, got '" + text
          + "'");
    }
    long n = Long.parseLong(word.substring(0, word.length() - 1));
    return word.endsWith("g") ? n << 30 : n << 20;
  }

  static void write(NetnsClusterSpec spec, File file) throws IOException {
    Properties p = new Properties();
    p.setProperty("nodes", Integer.toString(spec.nodes()));
    p.setProperty("yarn", Boolean.toString(spec.yarn()));
    p.setProperty("link", Long.toString(spec.linkBitsPerSecond()));
    p.setProperty("diskRead", Long.toString(spec.diskReadBytesPerSecond()));
    p.setProperty("diskWrite", Long.toString(spec.diskWriteBytesPerSecond()));
    p.setProperty("nodeMemory", Long.toString(spec.nodeMemoryBytes()));
    p.setProperty("diskSize", Long.toString(spec.diskBytes()));
    p.setProperty("volumes", String.join(",", spec.volumes()));
    p.setProperty("distLib", spec.distLibDir().getPath());
    spec.keys().forEach((k, v) -> p.setProperty("key." + k, v));
    try (OutputStream out = new FileOutputStream(file)) {
      p.store(out, "locus cluster up --netns");
    }
  }

  static NetnsClusterSpec read(File file) throws IOException {
    Properties p = new Properties();
    try (InputStream in = new FileInputStream(file)) {
      p.load(in);
    }
    Map<String, String> keys = new LinkedHashMap<>();
    for (String name : p.stringPropertyNames()) {
      if (name.startsWith("key.")) {
        keys.put(name.substring(4), p.getProperty(name));
      }
    }
    return new NetnsClusterSpec(Integer.parseInt(p.getProperty("nodes")),
        Boolean.parseBoolean(p.getProperty("yarn")), Long.parseLong(p.getProperty("link")),
        Long.parseLong(p.getProperty("diskRead")), Long.parseLong(p.getProperty("diskWrite")),
        Long.parseLong(p.getProperty("nodeMemory")), Long.parseLong(p.getProperty("diskSize")),
        new ArrayList<>(List.of(p.getProperty("volumes").split(","))), keys,
        new File(p.getProperty("distLib")));
  }
}
