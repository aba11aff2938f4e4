package org.locus.netns;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code DIR/netns.spec}: a {@link NetnsClusterSpec} as a properties file, the way the spec
 * travels from the process that starts a netns cluster to its supervisor.
 */
public final class NetnsSpecFile {
  private NetnsSpecFile() {
  }

  /** @return the spec file of the cluster in {@code dir} */
  public static File in(ClusterDirectory dir) {
    return new File(dir.root(), "netns.spec");
  }

  public static void write(NetnsClusterSpec spec, File file) throws IOException {
    Properties p = new Properties();
    p.setProperty("nodes", Integer.toString(spec.nodes()));
    p.setProperty("yarn", Boolean.toString(spec.yarn()));
    p.setProperty("link", Long.toString(spec.linkBitsPerSecond()));
    p.setProperty("diskRead", Long.toString(spec.diskReadBytesPerSecond()));
    p.setProperty("diskWrite", Long.toString(spec.diskWriteBytesPerSecond()));
    p.setProperty("ssdRead", Long.toString(spec.ssdReadBytesPerSecond()));
    p.setProperty("ssdWrite", Long.toString(spec.ssdWriteBytesPerSecond()));
    p.setProperty("nodeMemory", Long.toString(spec.nodeMemoryBytes()));
    p.setProperty("nodeCpus", Double.toString(spec.nodeCpus()));
    p.setProperty("diskSize", Long.toString(spec.diskBytes()));
    p.setProperty("volumes", String.join(",", spec.volumes()));
    p.setProperty("replicatedVolume", spec.replicatedVolume());
    p.setProperty("distLib", spec.distLibDir().getPath());
    p.setProperty("metadata", spec.metadata().word());
    p.setProperty("daemonUsers", Boolean.toString(spec.daemonUsers()));
    p.setProperty("diskModel", spec.diskModel().word());
    spec.keys().forEach((k, v) -> p.setProperty("key." + k, v));
    try (OutputStream out = new FileOutputStream(file)) {
      p.store(out, "locus cluster up --netns");
    }
  }

  public static NetnsClusterSpec read(File file) throws IOException {
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
    String diskRead = p.getProperty("diskRead");
    String diskWrite = p.getProperty("diskWrite");
    return NetnsClusterSpec.builder(Integer.parseInt(p.getProperty("nodes")),
            new File(p.getProperty("distLib")))
        .yarn(Boolean.parseBoolean(p.getProperty("yarn")))
        .link(Long.parseLong(p.getProperty("link")))
        .disk(Long.parseLong(diskRead), Long.parseLong(diskWrite))
        .ssd(Long.parseLong(p.getProperty("ssdRead", diskRead)),
            Long.parseLong(p.getProperty("ssdWrite", diskWrite)))
        .nodeMemory(Long.parseLong(p.getProperty("nodeMemory")))
        .nodeCpus(Double.parseDouble(p.getProperty("nodeCpus", "0")))
        .diskSize(Long.parseLong(p.getProperty("diskSize")))
        .volumes(new ArrayList<>(List.of(p.getProperty("volumes").split(","))))
        .replicatedVolume(p.getProperty("replicatedVolume", ""))
        .keys(keys)
        .metadata(MetadataLayout.of("metadata in " + file, p.getProperty("metadata",
            MetadataLayout.MASTER.word())))
        .daemonUsers(Boolean.parseBoolean(p.getProperty("daemonUsers", "false")))
        .diskModel(DiskModel.of("diskModel in " + file, p.getProperty("diskModel",
            DiskModel.NONE.word())))
        .build();
  }
}
