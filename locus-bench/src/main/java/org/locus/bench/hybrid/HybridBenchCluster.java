package org.locus.bench.hybrid;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.run.BenchCluster;
import org.locus.bench.run.LinkBytes;
import org.locus.bench.run.NetnsBenchClusters;
import org.locus.bench.run.RunningNetnsCluster;
import org.locus.hybrid.HybridLayout;
import org.locus.hybrid.HybridConfigKeys;
import org.locus.hybrid.HybridSettings;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DistBundle;
import org.locus.netns.NetnsClusterProcess;
import org.locus.netns.NetnsClusterSpec;
import org.locus.netns.NodeDeviceWrites;

/**
 * One layout of the hybrid bench on a netns cluster started for it (stock daemons, the dist
 * bundle, YARN): SSD volumes' devices throttled at the SSD rate, the other devices at the
 * layout's rate; the layout's SSD paths get ALL_SSD ({@code /hybrid} with the bench's root
 * under it for the hybrid layout, {@code /} for SSD-only). On close it reports the bytes
 * written to SSD and HDD devices during its life (input generation and every run) and stops
 * the cluster.
 */
final class HybridBenchCluster implements BenchCluster {
  private final StorageLayout layout;
  private final ClusterDirectory dir;
  private final Configuration conf;
  private final RunningNetnsCluster links;
  private final Map<String, Long> writesAtStart;
  private final BiConsumer<StorageLayout, Map<String, Long>> writesOnClose;
  private final PrintStream err;

  HybridBenchCluster(StorageLayout layout, File dir, HybridBenchRequest request,
      BiConsumer<StorageLayout, Map<String, Long>> writesOnClose, PrintStream err)
      throws Exception {
    this.layout = layout;
    this.dir = new ClusterDirectory(dir.getAbsoluteFile());
    this.writesOnClose = writesOnClose;
    this.err = err;
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("dfs.blocksize", Long.toString(request.blockBytes()));
    if (!layout.ssdPaths().isEmpty()) {
      keys.put(HybridConfigKeys.SSD_PATHS, layout.ssdPaths());
      keys.put(HybridConfigKeys.SSD_POLICY, "ALL_SSD");
    }
    long other = layout.otherDeviceRate(request.ssdRate(), request.hddRate());
    NetnsClusterSpec spec = NetnsClusterSpec.builder(request.nodes(),
            DistBundle.libDir(new ClusterLayout(this.dir.root()).distDir()))
        .yarn(true)
        .disk(other, other)
        .ssd(request.ssdRate(), request.ssdRate())
        .nodeMemory(request.nodeMemoryBytes())
        .diskSize(request.diskBytes())
        .volumes(layout.volumes())
        .keys(keys)
        .build();
    Properties state;
    try {
      state = NetnsClusterProcess.start(this.dir, spec, request.home(), err);
    } catch (Exception e) {
      down();
      throw new IOException("the netns cluster for layout " + layout.label() + " did not start ("
          + e.getMessage() + "); see " + new File(dir, "logs"), e);
    }
    this.conf = NetnsBenchClusters.clientConfiguration(this.dir);
    this.links = new RunningNetnsCluster(conf, this.dir.root(), request.nodes());
    try {
      if (!layout.ssdPaths().isEmpty()) {
        try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(conf)) {
          HybridLayout.apply(fs, HybridSettings.from(conf));
        }
      }
      NodeDeviceWrites.syncFileSystems(this.dir, state);
      this.writesAtStart = NodeDeviceWrites.of(state, layout.volumes(),
          layout.intermediateOnSsd());
    } catch (IOException | RuntimeException e) {
      down();
      throw e;
    }
  }

  @Override
  public Configuration conf() {
    return conf;
  }

  @Override
  public Path root() {
    return new Path(layout.root());
  }

  @Override
  public Map<String, LinkBytes> linkBytes() throws IOException {
    return links.linkBytes();
  }

  @Override
  public void evictCachedData() throws IOException {
    links.evictCachedData();
  }

  @Override
  public void close() {
    try {
      Properties state = dir.readState();
      NodeDeviceWrites.syncFileSystems(dir, state);
      Map<String, Long> now = NodeDeviceWrites.of(state, layout.volumes(),
          layout.intermediateOnSsd());
      Map<String, Long> written = new LinkedHashMap<>();
      now.forEach((kind, bytes) -> written.put(kind, bytes - writesAtStart.getOrDefault(kind,
          0L)));
      writesOnClose.accept(layout, written);
    } catch (IOException e) {
      err.println("device write counters of layout " + layout.label() + " unreadable: "
          + e.getMessage());
    } finally {
      down();
    }
  }

  private void down() {
    NetnsBenchClusters.stopQuietly(dir, err);
  }

  /** @return the layouts' labels, in report order */
  static List<String> labels() {
    return List.of(StorageLayout.SSD_ONLY.label(), StorageLayout.HYBRID.label(),
        StorageLayout.HDD_ONLY.label());
  }
}
