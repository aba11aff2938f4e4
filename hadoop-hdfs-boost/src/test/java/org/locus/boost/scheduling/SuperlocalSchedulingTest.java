package org.locus.boost.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.split.JobSplitWriter;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.boost.BoostTestClusters;
import org.locus.boost.SuperlocalPaths;
import org.locus.boost.placement.SuperlocalLayout;
import org.locus.kit.ClusterNode;
import org.locus.kit.LocusMiniCluster;
import org.locus.mapreduce.am.SplitReplicaHosts;

/**
 * Superlocal map scheduling on an embedded 4-node cluster with YARN, each node with a DISK and
 * an NVDIMM (REPLICATED) volume, over single-block files with one NVDIMM and one DISK replica.
 * One cluster, one job under the Locus AM.
 */
class SuperlocalSchedulingTest {
  private static final int BLOCK = 65_536;
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;
  /** Each input file's superlocal (NVDIMM) host, from HDFS's block locations. */
  private static final Map<String, String> SUPERLOCAL_HOST = new HashMap<>();
  private static final Path INPUT = new Path("/boost/scheduling/in");

  @BeforeAll
  static void startClusterAndWriteInput() throws Exception {
    Configuration keys = BoostTestClusters.featureKeys();
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/superlocal-scheduling"))
        .nodes(4)
        .volumes(StorageType.DISK, StorageType.NVDIMM)
        .yarn(true)
        .setAll(keys)
        .set("dfs.blocksize", Integer.toString(BLOCK))
        .set("dfs.replication", "2")
        .start();
    fs = cluster.getFileSystem();
    fs.mkdirs(INPUT);
    new SuperlocalPaths(fs, SuperlocalLayout.from(cluster.getConfiguration())).tag(INPUT, 3);
    // Single-block files until every host holds some file's NVDIMM replica: then the first map
    // container, wherever YARN puts it, has a map superlocal on its host waiting for it.
    Set<String> covered = new HashSet<>();
    for (int k = 0; k < 64 && (k < 12 || covered.size() < cluster.nodes().size()); k++) {
      Path file = new Path(INPUT, "part-" + k);
      try (FSDataOutputStream out = fs.create(file)) {
        for (int line = 0; out.getPos() < BLOCK - 64; line++) {
          out.write(("file " + k + " line " + line + "\n").getBytes(StandardCharsets.UTF_8));
        }
      }
      String host = nvdimmHost(file);
      SUPERLOCAL_HOST.put(file.getName(), host);
      covered.add(host);
    }
    assertEquals(cluster.nodes().size(), covered.size(), "every host holds an NVDIMM replica");
  }

  /**
   * The file's NVDIMM host, once its block has both replicas: on a busy machine a write pipeline
   * can lose a DataNode and close the block with one, which the NameNode then re-replicates.
   */
  private static String nvdimmHost(Path file) throws IOException, InterruptedException {
    FileStatus status = fs.getFileStatus(file);
    BlockLocation[] blocks = fs.getFileBlockLocations(status, 0, status.getLen());
    for (long deadline = System.currentTimeMillis() + 60_000;
        blocks.length == 1 && blocks[0].getHosts().length < 2
            && System.currentTimeMillis() < deadline; ) {
      Thread.sleep(500);
      blocks = fs.getFileBlockLocations(status, 0, status.getLen());
    }
    assertEquals(1, blocks.length, file + " is one block");
    assertEquals(2, blocks[0].getHosts().length, file + " has both replicas: " + blocks[0]);
    String found = null;
    for (int k = 0; k < blocks[0].getHosts().length; k++) {
      if (blocks[0].getStorageTypes()[k] == StorageType.NVDIMM) {
        assertEquals(null, found, file + " has one NVDIMM replica");
        found = blocks[0].getHosts()[k];
      }
    }
    assertTrue(found != null, file + " has an NVDIMM replica: " + blocks[0]);
    return found;
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The AM's reading of the split files, against splits written by Hadoop's own writer. */
  @Test
  void splitFilesGiveEachMapTheHostOfItsNvdimmReplica() throws Exception {
    Configuration conf = cluster.getConfiguration();
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputPaths(job, INPUT);
    List<InputSplit> splits = new TextInputFormat().getSplits(
        new JobContextImpl(job.getConfiguration(), new JobID()));
    Path dir = new Path("/boost/scheduling/split-files");
    InputSplit[] array = splits.toArray(new InputSplit[0]);
    JobSplitWriter.createSplitFiles(dir, job.getConfiguration(), fs, array);
    Configuration am = new Configuration(job.getConfiguration());
    am.set("mapreduce.job.dir", fs.makeQualified(dir).toString());

    SplitReplicaHosts hosts = SplitReplicaHosts.read(am);

    assertEquals(array.length, hosts.maps());
    for (int k = 0; k < array.length; k++) {
      String file = ((FileSplit) array[k]).getPath().getName();
      assertEquals(Set.of(SUPERLOCAL_HOST.get(file)), hosts.hostsOn(k, StorageType.NVDIMM),
          "split " + k + " " + file);
    }
  }

  /** Each map writes the file it read and the host it ran on (the NodeManager's NM_HOST). */
  public static class WhereMapper extends Mapper<LongWritable, Text, Text, NullWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) {
      // reads every record; writes only where it ran, below
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      String file = ((FileSplit) context.getInputSplit()).getPath().getName();
      context.write(new Text(file + "\t" + System.getenv("NM_HOST")), NullWritable.get());
    }
  }

  @Test
  void mapsRunSuperlocalFirstAndTheCounterCountsExactlyThose() throws Exception {
    Configuration conf = cluster.getConfiguration();
    SuperlocalJobs.configure(conf);
    Job job = Job.getInstance(conf, "superlocal-where");
    job.setJarByClass(WhereMapper.class);
    job.setMapperClass(WhereMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    FileInputFormat.setInputPaths(job, INPUT);
    Path output = new Path("/boost/scheduling/out");
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
    assertEquals(SUPERLOCAL_HOST.size(), ran.size(), "one record per map");
    Set<String> hosts = new HashSet<>();
    for (ClusterNode node : cluster.nodes()) {
      hosts.add(node.host());
    }
    long superlocal = 0;
    for (String[] r : ran) {
      assertTrue(hosts.contains(r[1]), "NM_HOST " + r[1] + " is a cluster host");
      if (r[1].equals(SUPERLOCAL_HOST.get(r[0]))) {
        superlocal++;
      }
    }
    long counted = SuperlocalTaskPlacement.SUPERLOCAL.counterIn(job.getCounters()).getValue();
    long dataLocal = job.getCounters().findCounter(JobCounter.DATA_LOCAL_MAPS).getValue();
    // The AM counts every map attempt given a container on its superlocal host. Each attempt
    // ends succeeded (one per map, in `ran`), killed (e.g. a speculative one, perhaps before it
    // started) or failed; on a busy host the speculator may add attempts.
    long ended = job.getCounters().findCounter(JobCounter.NUM_KILLED_MAPS).getValue()
        + job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue();
    if (ended == 0) {
      assertEquals(superlocal, counted, "superlocal counter = maps that ran on their NVDIMM host");
    } else {
      assertTrue(counted >= superlocal && counted <= superlocal + ended, counted
          + " counted, " + superlocal + " maps ran superlocal, " + ended + " attempts killed or"
          + " failed");
    }
    assertTrue(counted <= dataLocal, "superlocal maps are data-local too");
    assertTrue(counted >= 1, "the first map container went to a map superlocal on its host");
  }
}
