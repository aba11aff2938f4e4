package org.locus.netns;

import java.io.File;
import java.util.List;
import java.util.Map;

/**
 * What a netns cluster is asked to be. Rates are 0 for "unlimited".
 *
 * @param nodes worker nodes (each a DataNode, a NodeManager with YARN, a NameNode with SDP)
 * @param yarn whether YARN, MapReduce and the JobHistory server run
 * @param linkBitsPerSecond each node's link rate, both ways
 * @param diskReadBytesPerSecond read throttle of each of a node's devices but SSD volumes'
 * @param diskWriteBytesPerSecond write throttle of each of a node's devices but SSD volumes'
 * @param ssdReadBytesPerSecond read throttle of each {@code SSD} volume's device
 * @param ssdWriteBytesPerSecond write throttle of each {@code SSD} volume's device
 * @param nodeMemoryBytes memory cgroup limit of a node: its daemons, tasks and page cache
 * @param nodeCpus CPU bandwidth of a node in cores (cgroup CPU quota per 100 ms period), e.g.
 *     {@code 0.5} for a weak core; 0 for unlimited
 * @param diskBytes size of each loop-device disk
 * @param volumes storage type of each DataNode volume (each its own disk)
 * @param replicatedVolume storage type of one more DataNode volume per node that is a
 *     MorphStore mount ({@code morphstore-fuse}, {@code copies=2}) over two disks of its own,
 *     BoostDFS's REPLICATED storage; empty for none
 * @param keys configuration keys for every daemon and client (features, then {@code --conf})
 * @param distLibDir the {@code locus dist} bundle's jar directory: the only Locus code daemons
 *     load
 * @param metadata where the NameNodes run: one on the master, or one per node (federation)
 * @param daemonUsers whether the daemons run as their own accounts ({@link DaemonUsers}), not
 *     as root
 * @param diskModel what every loop-device disk behaves like: a plain image, or the emulated
 *     HDD ({@link HddEmulator}) under the throttles
 */
public record NetnsClusterSpec(int nodes, boolean yarn, long linkBitsPerSecond,
    long diskReadBytesPerSecond, long diskWriteBytesPerSecond, long ssdReadBytesPerSecond,
    long ssdWriteBytesPerSecond, long nodeMemoryBytes, double nodeCpus, long diskBytes,
    List<String> volumes, String replicatedVolume, Map<String, String> keys, File distLibDir,
    MetadataLayout metadata, boolean daemonUsers, DiskModel diskModel) {

  /** Memory set aside for the master's daemons (NameNode, ResourceManager, JobHistory). */
  public static final long MASTER_MEMORY_BYTES = 1536L << 20;
  /** Memory of a node the DataNode and NodeManager JVMs take before any task runs. */
  public static final long NODE_DAEMONS_BYTES = 768L << 20;

  public NetnsClusterSpec {
    if (!(nodeCpus >= 0) || Double.isInfinite(nodeCpus)) {
      throw new IllegalArgumentException("node CPUs must be a number of cores >= 0 (0: unlimited),"
          + " not " + nodeCpus);
    }
    volumes = List.copyOf(volumes);
    replicatedVolume = replicatedVolume == null ? "" : replicatedVolume;
    keys = Map.copyOf(keys);
    metadata = metadata == null ? MetadataLayout.MASTER : metadata;
    diskModel = diskModel == null ? DiskModel.NONE : diskModel;
  }

  /**
   * @param nodes worker nodes
   * @param distLibDir the {@code locus dist} bundle's jar directory
   * @return a builder of a spec: one NameNode on the master, no YARN, unshaped links and
   *     unthrottled plain disks, unlimited CPU, one {@code DISK} volume per node, no keys; the node
   *     memory and disk size have no default and must be set
   */
  public static Builder builder(int nodes, File distLibDir) {
    return new Builder(nodes, distLibDir);
  }

  /** @return a builder holding this spec's every value, to change some */
  public Builder toBuilder() {
    Builder b = new Builder(nodes, distLibDir);
    b.yarn = yarn;
    b.linkBitsPerSecond = linkBitsPerSecond;
    b.diskReadBytesPerSecond = diskReadBytesPerSecond;
    b.diskWriteBytesPerSecond = diskWriteBytesPerSecond;
    b.ssdReadBytesPerSecond = ssdReadBytesPerSecond;
    b.ssdWriteBytesPerSecond = ssdWriteBytesPerSecond;
    b.nodeMemoryBytes = nodeMemoryBytes;
    b.nodeCpus = nodeCpus;
    b.diskBytes = diskBytes;
    b.volumes = volumes;
    b.replicatedVolume = replicatedVolume;
    b.keys = keys;
    b.metadata = metadata;
    b.daemonUsers = daemonUsers;
    b.diskModel = diskModel;
    return b;
  }

  /** @return this spec with its NameNodes laid out as {@code layout} */
  public NetnsClusterSpec withMetadata(MetadataLayout layout) {
    return toBuilder().metadata(layout).build();
  }

  /** Builds a {@link NetnsClusterSpec} by name; each setter's meaning is the record's. */
  public static final class Builder {
    private final int nodes;
    private final File distLibDir;
    private boolean yarn;
    private long linkBitsPerSecond;
    private long diskReadBytesPerSecond;
    private long diskWriteBytesPerSecond;
    /** null: throttled like the other devices */
    private Long ssdReadBytesPerSecond;
    private Long ssdWriteBytesPerSecond;
    private long nodeMemoryBytes = -1;
    private double nodeCpus;
    private long diskBytes = -1;
    private List<String> volumes = List.of("DISK");
    private String replicatedVolume = "";
    private Map<String, String> keys = Map.of();
    private MetadataLayout metadata = MetadataLayout.MASTER;
    private boolean daemonUsers;
    private DiskModel diskModel = DiskModel.NONE;

    private Builder(int nodes, File distLibDir) {
      this.nodes = nodes;
      this.distLibDir = distLibDir;
    }

    public Builder yarn(boolean on) {
      this.yarn = on;
      return this;
    }

    public Builder link(long bitsPerSecond) {
      this.linkBitsPerSecond = bitsPerSecond;
      return this;
    }

    /** Read and write throttles of every device; SSD volumes' too unless {@link #ssd} sets them. */
    public Builder disk(long readBytesPerSecond, long writeBytesPerSecond) {
      this.diskReadBytesPerSecond = readBytesPerSecond;
      this.diskWriteBytesPerSecond = writeBytesPerSecond;
      return this;
    }

    /** Read and write throttles of the {@code SSD} volumes' devices. */
    public Builder ssd(long readBytesPerSecond, long writeBytesPerSecond) {
      this.ssdReadBytesPerSecond = readBytesPerSecond;
      this.ssdWriteBytesPerSecond = writeBytesPerSecond;
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

    public Builder volumes(List<String> types) {
      this.volumes = types;
      return this;
    }

    public Builder replicatedVolume(String type) {
      this.replicatedVolume = type;
      return this;
    }

    public Builder keys(Map<String, String> all) {
      this.keys = all;
      return this;
    }

    public Builder metadata(MetadataLayout layout) {
      this.metadata = layout;
      return this;
    }

    public Builder daemonUsers(boolean on) {
      this.daemonUsers = on;
      return this;
    }

    public Builder diskModel(DiskModel model) {
      this.diskModel = model;
      return this;
    }

    /** @throws IllegalStateException when the node memory or the disk size was not set */
    public NetnsClusterSpec build() {
      if (nodeMemoryBytes < 0 || diskBytes < 0) {
        throw new IllegalStateException("a netns cluster spec needs its node memory and its"
            + " disk size set");
      }
      return new NetnsClusterSpec(nodes, yarn, linkBitsPerSecond, diskReadBytesPerSecond,
          diskWriteBytesPerSecond,
          ssdReadBytesPerSecond == null ? diskReadBytesPerSecond : ssdReadBytesPerSecond,
          ssdWriteBytesPerSecond == null ? diskWriteBytesPerSecond : ssdWriteBytesPerSecond,
          nodeMemoryBytes, nodeCpus, diskBytes, volumes, replicatedVolume, keys, distLibDir,
          metadata, daemonUsers, diskModel);
    }
  }

  /** @return the read throttle of the device of volume {@code index} (0: unlimited) */
  public long volumeReadBytesPerSecond(int index) {
    return isSsd(index) ? ssdReadBytesPerSecond : diskReadBytesPerSecond;
  }

  /** @return the write throttle of the device of volume {@code index} (0: unlimited) */
  public long volumeWriteBytesPerSecond(int index) {
    return isSsd(index) ? ssdWriteBytesPerSecond : diskWriteBytesPerSecond;
  }

  /** @return whether each node has a REPLICATED (MorphStore) volume */
  public boolean hasReplicatedVolume() {
    return !replicatedVolume.isEmpty();
  }

  private boolean isSsd(int index) {
    return "SSD".equals(volumes.get(index));
  }

  /**
   * @return the memory of a node its daemons take before any task runs: the DataNode and
   *     NodeManager, on coupled nodes the node's NameNode's heap, and where partitions have
   *     copies the heaps of the replica NameNode, both ZKFCs and (on the quorum nodes, whose
   *     figure every node gets) a JournalNode and a ZooKeeper server
   */
  public long nodeDaemonsBytes() {
    long bytes = NODE_DAEMONS_BYTES
        + (metadata.coupled() ? (long) DaemonRole.NAMENODE.heapMb() << 20 : 0);
    if (PartitionReplicas.enabled(this)) {
      for (DaemonRole role : List.of(DaemonRole.REPLICA_NAMENODE, DaemonRole.ZKFC,
          DaemonRole.REPLICA_ZKFC, DaemonRole.JOURNALNODE, DaemonRole.ZOOKEEPER)) {
        bytes += (long) role.heapMb() << 20;
      }
    }
    return bytes;
  }

  /** @return the MiB a NodeManager offers to containers */
  public int containerMemoryMb() {
    return (int) ((nodeMemoryBytes - nodeDaemonsBytes()) >> 20);
  }

  /** @return how many nodes of this size fit in {@code availableBytes} beside the master */
  public long maxNodes(long availableBytes) {
    return Math.min(ClusterLayout.MAX_NODES,
        Math.max(0, (availableBytes - MASTER_MEMORY_BYTES) / nodeMemoryBytes));
  }
}
