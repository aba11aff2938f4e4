package org.locus.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.energy.datanode.BackupDisk;
import org.locus.energy.datanode.BackupDiskPowerManager;
import org.locus.energy.datanode.VolumeIoCounters;
import org.locus.energy.datanode.WakeRequests;
import org.locus.energy.disk.DiskPowerState;
import org.locus.energy.namenode.PrimaryFirstNetworkTopology;
import org.locus.energy.scheduling.BackupLocalTaskPlacement;
import org.locus.energy.scheduling.FastNodeJobs;
import org.locus.kit.LocusMiniCluster;
import org.locus.kit.net.LocalAddressSocketFactory;

/**
 * The fast node (seed 000 §4.3.1, wake reason 2) on an embedded 3-node cluster with a primary
 * and a backup volume per node, replication 3: every file is written from node 2 or node 3, so
 * node 1 holds no primary at all and a backup of everything. Reads by a client on node 1 go to
 * a remote primary while node 1's backup sleeps and to that local backup once it spins, through
 * the NameNode's real sort; maps under the Locus AM with {@code BackupLocalTaskPlacement} count
 * their backup-local launches. One cluster.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FastNodeTest {
  private static final int BLOCK = 65_536;
  private static final Path INPUT = new Path("/fast-node/in");
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;
  /** Each input file's hosts holding it on a backup volume. */
  private static final Map<String, Set<String>> BACKUP_HOSTS = new HashMap<>();

  @BeforeAll
  static void startClusterAndWriteFromNodesTwoAndThree() throws Exception {
    cluster = EnergyTestClusters.withEnergyFeature(
        LocusMiniCluster.builder(new File("target/test-clusters/fast-node")))
        .nodes(3)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .yarn(true)
        .set("dfs.blocksize", Integer.toString(BLOCK))
        .set("dfs.replication", "3")
        .set(EnergyConfigKeys.SPINUP_MS, "500")
        .set(EnergyConfigKeys.NAMENODE_POLL_INTERVAL_MS, "200")
        .start();
    HotScratchSpace.apply(cluster.getFileSystem(), cluster.getConfiguration());
    fs = cluster.getFileSystem();
    List<DataNode> nodes = cluster.getDfsCluster().getDataNodes();
    for (int k = 0; k < 8; k++) {
      Path file = new Path(INPUT, "part-" + k);
      InetSocketAddress writer = nodes.get(1 + k % 2).getXferAddress();
      try (FSDataOutputStream out = fs.create(file, FsPermission.getFileDefault(), false, 4096,
          (short) 3, BLOCK, null, new InetSocketAddress[] {writer})) {
        for (int line = 0; out.getPos() < BLOCK - 64; line++) {
          out.write(("file " + k + " line " + line + "\n").getBytes(StandardCharsets.UTF_8));
        }
      }
      BACKUP_HOSTS.put(file.getName(), hostsOnArchive(file));
    }
    for (Set<String> hosts : BACKUP_HOSTS.values()) {
      assertTrue(hosts.contains(nodeOne()), "node 1 holds a backup of every file: " + hosts);
    }
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void aNodesReadersReadItsOwnBackupOnlyWhileItSpins() throws Exception {
    Path file = new Path(INPUT, "part-0");
    BackupDisk backup = backupOf(0);
    PrimaryFirstNetworkTopology topology = topology();
    DatanodeInfoWithStorage first = firstForNodeOneWhile(file,
        "node 1's backup in standby and known so", () -> asleepAndKnownSo(backup, topology),
        () -> { });
    assertEquals(StorageType.DISK, first.getStorageType(),
        "a sleeping local backup is read after the primaries");
    long backupReads = backupReadsOf(0);
    readAsNodeOne(file);
    assertEquals(backupReads, backupReadsOf(0), "node 1 read its primary remotely");
    assertEquals(DiskPowerState.STANDBY, backup.state(), "and let its backup sleep");

    first = firstForNodeOneWhile(file, "node 1's backup spinning and known so",
        () -> spinningAndKnownSo(backup, topology),
        () -> WakeRequests.request(fs, cluster.getConfiguration(), nodeOne(),
            "test: the fast node"));
    assertEquals(StorageType.ARCHIVE, first.getStorageType(), "the spinning local backup first");
    assertEquals(nodeOne(), first.getIpAddr());
    // node 3's own backup of the file sleeps, and a reader on no DataNode has none of its own
    assertEquals(StorageType.DISK, firstReplicaFor(hostOf(2), file).getStorageType());
    assertEquals(StorageType.DISK, firstReplicaFor("127.0.0.1", file).getStorageType());
    readAsNodeOne(file);
    assertTrue(backupReadsOf(0) > backupReads, "node 1 read its own backup");
  }

  /** Each map writes the file it read and the host it ran on (the NodeManager's NM_HOST). */
  public static class WhereMapper extends Mapper<LongWritable, Text, Text, NullWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) {
      // only where the map ran matters
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      String file = ((FileSplit) context.getInputSplit()).getPath().getName();
      context.write(new Text(file + "\t" + System.getenv("NM_HOST")), NullWritable.get());
    }
  }

  @Test
  @Order(2)
  void backupLocalMapsAreCountedExactly() throws Exception {
    Configuration conf = new Configuration(cluster.getConfiguration());
    FastNodeJobs.configure(conf);
    conf.setBoolean("mapreduce.map.speculative", false);
    Job job = Job.getInstance(conf, "fast-node-where");
    job.setJarByClass(WhereMapper.class);
    job.setMapperClass(WhereMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    FileInputFormat.setInputPaths(job, INPUT);
    Path output = new Path("/fast-node/out");
    FileOutputFormat.setOutputPath(job, output);

    assertTrue(job.waitForCompletion(false), "job succeeded");

    List<String[]> ran = new ArrayList<>();
    for (FileStatus part : fs.listStatus(output, p -> p.getName().startsWith("part-"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(part.getPath()),
          StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          ran.add(line.split("\t"));
        }
      }
    }
    assertEquals(BACKUP_HOSTS.size(), ran.size(), "one record per map");
    long backupLocal = 0;
    for (String[] r : ran) {
      if (BACKUP_HOSTS.get(r[0]).contains(r[1])) {
        backupLocal++;
      }
    }
    long counted = BackupLocalTaskPlacement.BACKUP_LOCAL.counterIn(job.getCounters()).getValue();
    long launched = job.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
    long dataLocal = job.getCounters().findCounter(JobCounter.DATA_LOCAL_MAPS).getValue();
    if (launched == ran.size()) {
      assertEquals(backupLocal, counted, "backup-local counter = maps that ran on a backup host");
    } else {
      // a failed attempt was launched too: counted per attempt
      assertTrue(counted >= backupLocal && counted <= launched, counted + " vs " + backupLocal);
    }
    assertTrue(counted <= dataLocal, "backup-local maps are data-local too");
  }

  /** A step run before each wait; it may throw. */
  private interface Step {
    void run() throws Exception;
  }

  /**
   * The replica the NameNode's sort puts first for node 1's reader of {@code file}, from a sort
   * over which {@code holds} held: awaited before the sort and checked after it, at most 5
   * sorts, since the NameNode reads the DataNodes' lists on its own thread and a sort between
   * two of its polls could see either. {@code before} runs before each wait.
   */
  private static DatanodeInfoWithStorage firstForNodeOneWhile(Path file, String state,
      BooleanSupplier holds, Step before) throws Exception {
    for (int sorts = 0; sorts < 5; sorts++) {
      before.run();
      EnergyTestClusters.await(state, 60_000, holds);
      DatanodeInfoWithStorage first = firstReplicaFor(nodeOne(), file);
      if (holds.getAsBoolean()) {
        return first;
      }
    }
    throw new AssertionError(state + " did not hold over any of 5 sorts");
  }

  /**
   * Whether {@code backup} is in standby, no DataNode lists it as spinning, and the NameNode's
   * topology does not either; checked in that order, the order in which news of a spin-down
   * travels.
   */
  private static boolean asleepAndKnownSo(BackupDisk backup, PrimaryFirstNetworkTopology topology) {
    if (backup.state() != DiskPowerState.STANDBY) {
      return false;
    }
    try {
      Path dir = new Path(EnergySettings.from(cluster.getConfiguration()).awakeDir());
      if (fs.exists(dir)) {
        for (FileStatus list : fs.listStatus(dir, p -> !p.getName().startsWith("."))) {
          try (BufferedReader in = new BufferedReader(new InputStreamReader(
              fs.open(list.getPath()), StandardCharsets.UTF_8))) {
            if (in.lines().anyMatch(backup.storageId()::equals)) {
              return false;
            }
          }
        }
      }
    } catch (FileNotFoundException e) {
      return false; // a list replaced while read: look again
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return !topology.awakeBackups().contains(backup.storageId());
  }

  private static boolean spinningAndKnownSo(BackupDisk backup,
      PrimaryFirstNetworkTopology topology) {
    DiskPowerState state = backup.state();
    return state != DiskPowerState.STANDBY && state != DiskPowerState.WAKING
        && topology.awakeBackups().contains(backup.storageId());
  }

  private static String nodeOne() {
    return hostOf(0);
  }

  private static String hostOf(int node) {
    return cluster.nodes().get(node).host();
  }

  /** The file's hosts on ARCHIVE, once its block has all three replicas. */
  private static Set<String> hostsOnArchive(Path file) throws Exception {
    FileStatus status = fs.getFileStatus(file);
    BlockLocation[][] blocks = new BlockLocation[1][];
    EnergyTestClusters.await(file + " with three replicas", 60_000, () -> {
      try {
        blocks[0] = fs.getFileBlockLocations(status, 0, status.getLen());
        return blocks[0].length == 1 && blocks[0][0].getHosts().length == 3;
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    Set<String> hosts = new HashSet<>();
    for (int k = 0; k < 3; k++) {
      if (blocks[0][0].getStorageTypes()[k] == StorageType.ARCHIVE) {
        hosts.add(blocks[0][0].getHosts()[k]);
      }
    }
    return hosts;
  }

  /** The replica the NameNode's own sort puts first for a reader at {@code host}. */
  private static DatanodeInfoWithStorage firstReplicaFor(String host, Path file)
      throws IOException {
    List<LocatedBlock> blocks = new ArrayList<>(
        fs.getClient().getLocatedBlocks(file.toString(), 0).getLocatedBlocks());
    DatanodeManager manager = cluster.getDfsCluster().getNamesystem().getBlockManager()
        .getDatanodeManager();
    manager.sortLocatedBlocks(host, blocks);
    return blocks.get(0).getLocations()[0];
  }

  /** Reads the file through a client whose connections leave from node 1's address. */
  private static void readAsNodeOne(Path file) throws IOException {
    Configuration conf = new Configuration(cluster.getConfiguration());
    conf.set("hadoop.rpc.socket.factory.class.default",
        LocalAddressSocketFactory.class.getName());
    conf.set(LocalAddressSocketFactory.BIND_ADDRESS_KEY, nodeOne());
    try (FileSystem client = FileSystem.newInstance(fs.getUri(), conf);
        InputStream in = client.open(file)) {
      byte[] buffer = new byte[8192];
      while (in.read(buffer) >= 0) {
        // drain
      }
    }
  }

  private static PrimaryFirstNetworkTopology topology() {
    return (PrimaryFirstNetworkTopology) cluster.getDfsCluster().getNamesystem()
        .getBlockManager().getDatanodeManager().getNetworkTopology();
  }

  private static BackupDisk backupOf(int node) {
    BackupDiskPowerManager manager = EnergyTestClusters.managers(cluster).get(node);
    for (BackupDisk disk : manager.disks()) {
      if (disk.backup()) {
        return disk;
      }
    }
    throw new AssertionError("node " + node + " has no backup disk");
  }

  private static long backupReadsOf(int node) throws IOException {
    DataNode dn = cluster.getDfsCluster().getDataNodes().get(node);
    try (FsDatasetSpi.FsVolumeReferences volumes = dn.getFSDataset().getFsVolumeReferences()) {
      for (FsVolumeSpi volume : volumes) {
        if (volume.getStorageType() == StorageType.ARCHIVE) {
          return VolumeIoCounters.of(volume).reads();
        }
      }
    }
    throw new AssertionError("node " + node + " has no backup volume");
  }
}
