package org.locus.bench.run;

import java.io.File;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.locus.netns.DiskModel;
import org.locus.netns.MetadataLayout;
import org.locus.netns.NetnsClusterSpec;

/**
 * What a bench asks of a cluster, whatever runs it: the nodes, each node's DataNode volumes, the
 * rates of its devices and link, its memory, CPU and disk size, whether it runs YARN, and the
 * configuration keys of the feature under test. Every recipe cluster runs HDFS. A feature's
 * bench builds one recipe per layout it compares; {@link EmbeddedCluster} and
 * {@link NetnsCluster} start it.
 *
 * <p>Rates are 0 for "unlimited". The embedded cluster (one JVM, loopback links, directories
 * for disks) cannot throttle or cap anything: it takes the nodes, volumes, YARN and keys only.
 *
 * @param nodes worker nodes
 * @param volumes the storage type of each DataNode volume of a node, each its own disk
 * @param replicatedVolume the storage type of one more volume per node on MorphStore
 *     ({@code copies=2}), BoostDFS's REPLICATED storage; null for none (netns only)
 * @param diskBytesPerSecond read and write throttle of each device but SSD volumes'
 * @param ssdBytesPerSecond read and write throttle of each {@code SSD} volume's device
 * @param linkBitsPerSecond each node's link rate, both ways
 * @param nodeMemoryBytes memory limit of a node: its daemons, tasks and page cache
 * @param nodeCpus CPU bandwidth of a node in cores, 0 for unlimited (netns only)
 * @param diskBytes size of each node disk
 * @param yarn whether YARN and MapReduce run beside HDFS
 * @param metadata where the namespace lives: one NameNode on the master, or coupled nodes
 *     ({@code sdp}, {@code fatbtree}: a NameNode per node, docs/ndcoupling.md; netns only)
 * @param keys configuration keys for every daemon and client, in the order they were given
 * @param diskModel what every node disk behaves like: a plain loop device, or the emulated HDD
 *     under the throttles ({@code --disk-model hdd}, docs/netns.md; netns only)
 */
public record ClusterRecipe(int nodes, List<StorageType> volumes, StorageType replicatedVolume,
    long diskBytesPerSecond, long ssdBytesPerSecond, long linkBitsPerSecond,
    long nodeMemoryBytes, double nodeCpus, long diskBytes, boolean yarn,
    MetadataLayout metadata, Map<String, String> keys, DiskModel diskModel) {

  /** Disk size of a recipe that does not set one: room for a smoke-size bench's data. */
  public static final long DEFAULT_DISK_BYTES = 2L << 30;

  public ClusterRecipe {
    if (nodes < 1) {
      throw new IllegalArgumentException("a cluster recipe needs at least one node, not "
          + nodes);
    }
    if (volumes.isEmpty()) {
      throw new IllegalArgumentException("a cluster recipe needs at least one volume per node");
    }
    volumes = List.copyOf(volumes);
    Objects.requireNonNull(metadata, "a cluster recipe's metadata layout");
    keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
    Objects.requireNonNull(diskModel, "a cluster recipe's disk model");
  }

  /**
   * @return a builder of a recipe with one DISK volume per node, HDFS and YARN, nothing
   *     throttled or capped, no keys
   */
  public static Builder builder(int nodes) {
    return new Builder(nodes);
  }

  /**
   * @param keys a feature set's keys (empty for {@code none})
   * @return a builder of the cluster {@code bench run} starts for one feature set: two replicas,
   *     so that a 4-node cluster has room to place, unless the set's keys say otherwise
   */
  public static Builder featureSet(int nodes, Configuration keys) {
    return builder(nodes).set("dfs.replication", "2").setAll(keys);
  }

  /**
   * @param distLibDir the {@code locus dist} bundle's jar directory the daemons load
   * @return the netns cluster this recipe describes
   * @throws IllegalStateException when the recipe has no node memory
   */
  public NetnsClusterSpec netnsSpec(File distLibDir) {
    if (nodeMemoryBytes <= 0) {
      throw new IllegalStateException("a netns cluster needs the memory of its nodes; the"
          + " recipe has " + nodeMemoryBytes);
    }
    return NetnsClusterSpec.builder(nodes, distLibDir)
        .yarn(yarn)
        .link(linkBitsPerSecond)
        .disk(diskBytesPerSecond, diskBytesPerSecond)
        .ssd(ssdBytesPerSecond, ssdBytesPerSecond)
        .nodeMemory(nodeMemoryBytes)
        .nodeCpus(nodeCpus)
        .diskSize(diskBytes)
        .volumes(volumes.stream().map(StorageType::name).toList())
        .replicatedVolume(replicatedVolume == null ? "" : replicatedVolume.name())
        .keys(keys)
        .metadata(metadata)
        .diskModel(diskModel)
        .build();
  }

  /** Builds a {@link ClusterRecipe} by name; each setter's meaning is the record's. */
  public static final class Builder {
    private final int nodes;
    private List<StorageType> volumes = List.of(StorageType.DISK);
    private StorageType replicatedVolume;
    private long diskBytesPerSecond;
    /** null: throttled like the other devices */
    private Long ssdBytesPerSecond;
    private long linkBitsPerSecond;
    private long nodeMemoryBytes;
    private double nodeCpus;
    private long diskBytes = DEFAULT_DISK_BYTES;
    private boolean yarn = true;
    private MetadataLayout metadata = MetadataLayout.MASTER;
    private final Map<String, String> keys = new LinkedHashMap<>();
    private DiskModel diskModel = DiskModel.NONE;

    private Builder(int nodes) {
      this.nodes = nodes;
    }

    public Builder volumes(List<StorageType> types) {
      this.volumes = types;
      return this;
    }

    public Builder replicatedVolume(StorageType type) {
      this.replicatedVolume = type;
      return this;
    }

    /** Every device's throttle; SSD volumes' too unless {@link #ssdRate} sets theirs. */
    public Builder diskRate(long bytesPerSecond) {
      this.diskBytesPerSecond = bytesPerSecond;
      return this;
    }

    public Builder ssdRate(long bytesPerSecond) {
      this.ssdBytesPerSecond = bytesPerSecond;
      return this;
    }

    public Builder link(long bitsPerSecond) {
      this.linkBitsPerSecond = bitsPerSecond;
      return this;
    }

    public Builder nodeMemory(long bytes) {
      this.nodeMemoryBytes = bytes;
      return this;
    }

    public Builder nodeCpus(double cores) {
      this.nodeCpus = cores;
      return this;
    }

    public Builder diskSize(long bytes) {
      this.diskBytes = bytes;
      return this;
    }

    public Builder yarn(boolean on) {
      this.yarn = on;
      return this;
    }

    public Builder metadata(MetadataLayout layout) {
      this.metadata = layout;
      return this;
    }

    public Builder diskModel(DiskModel model) {
      this.diskModel = model;
      return this;
    }

    /** Adds a key; a key set again keeps its first place and takes the new value. */
    public Builder set(String key, String value) {
      keys.put(key, value);
      return this;
    }

    public Builder setAll(Map<String, String> all) {
      keys.putAll(all);
      return this;
    }

    /** Adds every key of {@code conf} as written there (variables not expanded). */
    public Builder setAll(Configuration conf) {
      for (Map.Entry<String, String> e : conf) {
        keys.put(e.getKey(), conf.getRaw(e.getKey()));
      }
      return this;
    }

    public ClusterRecipe build() {
      return new ClusterRecipe(nodes, volumes, replicatedVolume, diskBytesPerSecond,
          ssdBytesPerSecond == null ? diskBytesPerSecond : ssdBytesPerSecond,
          linkBitsPerSecond, nodeMemoryBytes, nodeCpus, diskBytes, yarn, metadata, keys,
          diskModel);
    }
  }
}
