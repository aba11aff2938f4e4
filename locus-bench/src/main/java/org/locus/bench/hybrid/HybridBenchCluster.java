package org.locus.bench.hybrid;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.run.ClusterRecipe;
import org.locus.bench.run.ForwardingBenchCluster;
import org.locus.bench.run.NetnsCluster;
import org.locus.hybrid.HybridConfigKeys;
import org.locus.hybrid.HybridLayout;
import org.locus.hybrid.HybridSettings;
import org.locus.netns.NodeDeviceWrites;

/**
 * One layout of the hybrid bench on a netns cluster started for it (stock daemons, the dist
 * bundle, YARN): SSD volumes' devices throttled at the SSD rate, the other devices at the
 * layout's rate; the layout's SSD paths get ALL_SSD ({@code /hybrid} with the bench's root
 * under it for the hybrid layout, {@code /} for SSD-only). On close it reports the bytes
 * written to SSD and HDD devices during its life (input generation and every run) and stops
 * the cluster.
 */
final class HybridBenchCluster extends ForwardingBenchCluster {
  private final StorageLayout layout;
  private final NetnsCluster cluster;
  private final Map<String, Long> writesAtStart;
  private final BiConsumer<StorageLayout, Map<String, Long>> writesOnClose;
  private final PrintStream err;

  HybridBenchCluster(StorageLayout layout, File dir, HybridBenchRequest request,
      BiConsumer<StorageLayout, Map<String, Long>> writesOnClose, PrintStream err)
      throws Exception {
    this(layout, NetnsCluster.start(dir, recipe(layout, request), "layout " + layout.label(),
        request.home(), err), writesOnClose, err);
  }

  private HybridBenchCluster(StorageLayout layout, NetnsCluster cluster,
      BiConsumer<StorageLayout, Map<String, Long>> writesOnClose, PrintStream err)
      throws IOException {
    super(cluster);
    this.layout = layout;
    this.cluster = cluster;
    this.writesOnClose = writesOnClose;
    this.err = err;
    try {
      if (!layout.ssdPaths().isEmpty()) {
        try (DistributedFileSystem fs =
            (DistributedFileSystem) FileSystem.newInstance(cluster.conf())) {
          HybridLayout.apply(fs, HybridSettings.from(cluster.conf()));
        }
      }
      NodeDeviceWrites.syncFileSystems(cluster.directory(), cluster.startState());
      this.writesAtStart = NodeDeviceWrites.of(cluster.startState(), layout.volumes(),
          layout.intermediateOnSsd());
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /**
   * @return a layout's nodes: its volumes, SSD volumes' devices at the SSD rate and the others
   *     at the layout's rate, ALL_SSD on its SSD paths
   */
  static ClusterRecipe recipe(StorageLayout layout, HybridBenchRequest request) {
    long other = layout.otherDeviceRate(request.ssdRate(), request.hddRate());
    ClusterRecipe.Builder recipe = ClusterRecipe.builder(request.nodes())
        .volumes(layout.volumes().stream().map(StorageType::valueOf).toList())
        .diskRate(other)
        .ssdRate(request.ssdRate())
        .nodeMemory(request.nodeMemoryBytes())
        .diskSize(request.diskBytes())
        .set("dfs.blocksize", Long.toString(request.blockBytes()));
    if (!layout.ssdPaths().isEmpty()) {
      recipe.set(HybridConfigKeys.SSD_PATHS, layout.ssdPaths())
          .set(HybridConfigKeys.SSD_POLICY, "ALL_SSD");
    }
    return recipe.build();
  }

  @Override
  public Path root() {
    return new Path(layout.root());
  }

  @Override
  public void close() {
    try {
      Properties state = cluster.directory().readState();
      NodeDeviceWrites.syncFileSystems(cluster.directory(), state);
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
      super.close();
    }
  }

  /** @return the layouts' labels, in report order */
  static List<String> labels() {
    return List.of(StorageLayout.SSD_ONLY.label(), StorageLayout.HYBRID.label(),
        StorageLayout.HDD_ONLY.label());
  }
}
