package org.locus.kit;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.StorageLocation;
import org.apache.hadoop.net.TableMapping;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded Hadoop cluster of N nodes, each on its own loopback address and host name: one
 * NameNode, N DataNodes with typed volumes, and optionally a ResourceManager, N NodeManagers
 * (node {@code k}'s NodeManager shares node {@code k}'s address) and a JobHistoryServer.
 *
 * <p>Lifecycle: {@link Builder#start()} formats and starts everything and returns once every
 * DataNode has registered and every NodeManager has connected; {@link #close()} stops it all.
 * All state lives under the builder's base directory.
 *
 * <pre>{@code
 * try (LocusMiniCluster cluster = LocusMiniCluster.builder(new File("target/c"))
 *     .nodes(4).volumes(StorageType.DISK, StorageType.ARCHIVE).yarn(true).start()) {
 *   DistributedFileSystem fs = cluster.getFileSystem();
 *   Job job = Job.getInstance(cluster.getConfiguration());
 * }
 * }</pre>
 */
public final class LocusMiniCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocusMiniCluster.class);
  /** Memory a NodeManager offers unless the builder says otherwise: MiniYARNCluster's own. */
  public static final int DEFAULT_NODE_MANAGER_MEMORY_MB =
      YarnConfiguration.DEFAULT_YARN_MINICLUSTER_NM_PMEM_MB;

  private final File baseDir;
  private final HostAddressedMiniDFSCluster dfs;
  private final HostAddressedMiniMRYarnCluster yarn;
  private final Map<String, String> racks;
  private final StorageType[] volumes;
  /** Capacity every volume reports, bytes; null: the file system's own. */
  private final Long volumeCapacity;

  private LocusMiniCluster(File baseDir, HostAddressedMiniDFSCluster dfs,
      HostAddressedMiniMRYarnCluster yarn, Map<String, String> racks, StorageType[] volumes,
      Long volumeCapacity) {
    this.baseDir = baseDir;
    this.dfs = dfs;
    this.yarn = yarn;
    this.racks = racks;
    this.volumes = volumes;
    this.volumeCapacity = volumeCapacity;
  }

  public static Builder builder(File baseDir) {
    return new Builder(baseDir);
  }

  /** @return the nodes in start order; nodes added later come last */
  public List<ClusterNode> nodes() {
    List<ClusterNode> nodes = new ArrayList<>();
    List<DataNode> dataNodes = dfs.getDataNodes();
    for (int i = 0; i < dataNodes.size(); i++) {
      DataNode dn = dataNodes.get(i);
      String host = dn.getDatanodeId().getHostName();
      nodes.add(new ClusterNode(i + 1, host,
          racks.getOrDefault(host, "/default-rack"), volumesOf(dn)));
    }
    return nodes;
  }

  private static List<ClusterVolume> volumesOf(DataNode dn) {
    List<ClusterVolume> volumes = new ArrayList<>();
    for (String dir : dn.getConf().getTrimmedStringCollection(
        DFSConfigKeys.DFS_DATANODE_DATA_DIR_KEY)) {
      try {
        StorageLocation location = StorageLocation.parse(dir);
        volumes.add(new ClusterVolume(location.getStorageType(),
            new File(location.getUri())));
      } catch (IOException e) {
        throw new IllegalStateException("unparsable data dir " + dir, e);
      }
    }
    return volumes;
  }

  /**
   * Starts one more DataNode (HDFS only) on the next node address, with the same volume types,
   * and returns once it has registered. Clusters with racks cannot grow this way.
   *
   * @return the new node
   */
  public ClusterNode addDataNode() throws IOException {
    if (!racks.isEmpty()) {
      throw new IllegalStateException("adding nodes to a cluster with racks is not supported");
    }
    dfs.startDataNodes(dfs.getConfiguration(0), 1, new StorageType[][] {volumes}, true, null,
        null, null, capacities(1, volumes.length, volumeCapacity), null, false, false, false,
        null, null, null);
    dfs.waitActive();
    List<ClusterNode> all = nodes();
    return all.get(all.size() - 1);
  }

  /** @return a client configuration for this cluster (a fresh copy each call) */
  public Configuration getConfiguration() {
    return new Configuration(yarn != null ? yarn.getConfig() : dfs.getConfiguration(0));
  }

  public DistributedFileSystem getFileSystem() throws IOException {
    return dfs.getFileSystem();
  }

  public HostAddressedMiniDFSCluster getDfsCluster() {
    return dfs;
  }

  /** @return the YARN side, or null when the cluster was built without YARN */
  public HostAddressedMiniMRYarnCluster getYarnCluster() {
    return yarn;
  }

  public File getBaseDir() {
    return baseDir;
  }

  /**
   * Writes {@code core-site.xml}, {@code hdfs-site.xml}, {@code yarn-site.xml} and
   * {@code mapred-site.xml} into {@code confDir} so that stock Hadoop clients (and
   * {@code locus fs}) reach this cluster.
   */
  public void writeClientConfiguration(File confDir) throws IOException {
    new ClientConfigurationWriter(getConfiguration()).writeTo(confDir);
  }

  @Override
  public void close() {
    if (yarn != null) {
      yarn.stop();
    }
    dfs.shutdown(true);
    LOG.info("Embedded cluster under {} stopped", baseDir);
  }

  /**
   * The documented key set of a Locus feature, {@code conf/features/NAME.xml} under the Locus
   * home ({@code -Dlocus.home}, the checkout in tests), as {@code locus cluster up --feature NAME}
   * applies it; for {@link Builder#setAll}.
   *
   * @throws IllegalArgumentException naming the file when there is no such key set
   */
  public static Configuration featureKeys(String name) {
    File file = new File(System.getProperty("locus.home", "."), "conf/features/" + name + ".xml");
    if (!file.isFile()) {
      throw new IllegalArgumentException("no key set for feature '" + name + "': " + file
          + " does not exist");
    }
    Configuration keys = new Configuration(false);
    keys.addResource(new org.apache.hadoop.fs.Path(file.toURI()));
    keys.size(); // load now, so a malformed file fails here
    return keys;
  }

  /** @return MiniDFSCluster's per-node, per-volume capacities, or null for the real ones */
  private static long[][] capacities(int nodes, int volumesPerNode, Long bytes) {
    if (bytes == null) {
      return null;
    }
    long[][] capacities = new long[nodes][volumesPerNode];
    for (long[] node : capacities) {
      Arrays.fill(node, bytes);
    }
    return capacities;
  }

  /** Describes and starts a {@link LocusMiniCluster}. */
  public static final class Builder {
    private final File baseDir;
    private int nodes = 1;
    private StorageType[] volumes = {StorageType.DISK};
    private String[] racks;
    private boolean withYarn;
    private int nodeManagerMemoryMb = DEFAULT_NODE_MANAGER_MEMORY_MB;
    private Long volumeCapacity;
    private final Configuration overrides = new Configuration(false);

    private Builder(File baseDir) {
      this.baseDir = Objects.requireNonNull(baseDir, "baseDir").getAbsoluteFile();
      if (this.baseDir.getPath().contains(",")) {
        // the volumes, name and local directories below it go into comma-separated keys
        // (dfs.datanode.data.dir and others), where a comma splits one path into two
        throw new IllegalArgumentException("cluster directory " + this.baseDir + " contains"
            + " ',': Hadoop reads its directory keys as comma-separated lists; choose a path"
            + " without commas");
      }
    }

    /** Number of nodes, 1..{@value NodeAddressPlan#MAX_NODES}. */
    public Builder nodes(int count) {
      if (count < 1 || count > NodeAddressPlan.MAX_NODES) {
        throw new IllegalArgumentException("node count must be 1.." + NodeAddressPlan.MAX_NODES
            + ", got " + count);
      }
      this.nodes = count;
      return this;
    }

    /** Storage type of each volume every DataNode gets, in order (one volume per entry). */
    public Builder volumes(StorageType... types) {
      if (types.length == 0) {
        throw new IllegalArgumentException("a DataNode needs at least one volume");
      }
      this.volumes = types.clone();
      return this;
    }

    /** Rack of each node, in node order, e.g. {@code "/r1", "/r1", "/r2", "/r2"}. */
    public Builder racks(String... rackOfNode) {
      this.racks = rackOfNode.clone();
      return this;
    }

    /** Also start YARN with MapReduce (ResourceManager, NodeManagers, JobHistoryServer). */
    public Builder yarn(boolean enabled) {
      this.withYarn = enabled;
      return this;
    }

    /**
     * Memory each NodeManager offers to containers (a task container takes 512 MB; default
     * {@value LocusMiniCluster#DEFAULT_NODE_MANAGER_MEMORY_MB}, the mini cluster's own).
     */
    public Builder nodeManagerMemoryMb(int mb) {
      this.nodeManagerMemoryMb = mb;
      return this;
    }

    /**
     * Makes every volume report {@code bytes} of capacity instead of its file system's size
     * (Hadoop's own test hook), so a few MiB of data make utilization differ between nodes, as
     * the Balancer needs.
     */
    public Builder volumeCapacity(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("volume capacity must be positive, got " + bytes);
      }
      this.volumeCapacity = bytes;
      return this;
    }

    /** Sets one configuration key for every daemon and client of the cluster. */
    public Builder set(String key, String value) {
      overrides.set(key, value);
      return this;
    }

    /** Adds every key of {@code extra} (overriding earlier values). */
    public Builder setAll(Configuration extra) {
      for (Map.Entry<String, String> e : extra) {
        overrides.set(e.getKey(), extra.getRaw(e.getKey()));
      }
      return this;
    }

    /** Formats and starts the cluster; returns once it is serving. */
    public LocusMiniCluster start() throws IOException {
      if (racks != null && racks.length != nodes) {
        throw new IllegalArgumentException(
            racks.length + " racks given for " + nodes + " nodes; give one rack per node");
      }
      if (!baseDir.isDirectory() && !baseDir.mkdirs()) {
        throw new IOException("cannot create cluster directory " + baseDir);
      }
      Configuration conf = new HdfsConfiguration();
      conf.set("hadoop.tmp.dir", new File(baseDir, "tmp").getPath());
      MiniClusterTuning.apply(conf, nodeManagerMemoryMb);
      Map<String, String> rackOfHost = configureTopology(conf);
      for (Map.Entry<String, String> e : overrides) {
        conf.set(e.getKey(), overrides.getRaw(e.getKey()));
      }

      StorageType[][] types = new StorageType[nodes][];
      Arrays.fill(types, volumes);
      HostAddressedMiniDFSCluster dfs = (HostAddressedMiniDFSCluster)
          new HostAddressedMiniDFSCluster.Builder(conf, new File(baseDir, "dfs"))
              .numDataNodes(nodes)
              .storagesPerDatanode(volumes.length)
              .storageTypes(types)
              .storageCapacities(capacities(nodes, volumes.length, volumeCapacity))
              .useConfiguredTopologyMappingClass(true)
              .build();
      HostAddressedMiniMRYarnCluster yarn = null;
      try {
        dfs.waitActive();
        if (withYarn) {
          yarn = startYarn(dfs);
        }
      } catch (IOException | RuntimeException e) {
        dfs.shutdown(true);
        throw e;
      }
      LOG.info("Embedded cluster of {} nodes up under {}", nodes, baseDir);
      return new LocusMiniCluster(baseDir, dfs, yarn, rackOfHost, volumes.clone(),
          volumeCapacity);
    }

    private Map<String, String> configureTopology(Configuration conf) throws IOException {
      if (racks == null) {
        return Collections.emptyMap();
      }
      Map<String, String> rackOfHost = new LinkedHashMap<>();
      File table = new File(baseDir, "topology.table");
      try (PrintWriter out = new PrintWriter(table, StandardCharsets.UTF_8)) {
        for (int i = 0; i < nodes; i++) {
          String host = NodeAddressPlan.hostOf(i + 1);
          rackOfHost.put(host, racks[i]);
          out.println(host + " " + racks[i]);
        }
      }
      conf.set("net.topology.node.switch.mapping.impl", TableMapping.class.getName());
      conf.set("net.topology.table.file.name", table.getPath());
      return rackOfHost;
    }

    /**
     * MiniYARNCluster places its working directory under the system property
     * {@code test.build.data}; it is pointed at the base directory only while YARN is built.
     */
    private HostAddressedMiniMRYarnCluster startYarn(HostAddressedMiniDFSCluster dfs) {
      Configuration yarnConf = new YarnConfiguration(dfs.getConfiguration(0));
      String previous = System.getProperty("test.build.data");
      System.setProperty("test.build.data", new File(baseDir, "yarn").getPath());
      HostAddressedMiniMRYarnCluster yarn;
      try {
        yarn = new HostAddressedMiniMRYarnCluster("locus", nodes);
      } finally {
        if (previous == null) {
          System.clearProperty("test.build.data");
        } else {
          System.setProperty("test.build.data", previous);
        }
      }
      yarn.init(yarnConf);
      yarn.start();
      return yarn;
    }
  }
}
