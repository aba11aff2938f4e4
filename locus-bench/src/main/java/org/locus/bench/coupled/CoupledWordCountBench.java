package org.locus.bench.coupled;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.locus.bench.run.NetnsBenchClusters;
import org.locus.jobs.JobOutcome;
import org.locus.jobs.JobTimeline;
import org.locus.jobs.WordCount;
import org.locus.ndcoupling.client.MountTableAdmin;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.DistBundle;
import org.locus.netns.MetadataLayout;
import org.locus.netns.NetnsClusterProcess;
import org.locus.netns.NetnsClusterSpec;

/**
 * WordCount over many one-block files on stock HDFS (one NameNode on the master,
 * {@code --metadata master}) and on coupled nodes (a NameNode per node, the namespace split by
 * the mount table, {@code --metadata sdp}), same nodes, same container capacity (seed 004
 * §5.2). The input is spread over one directory per partition ({@code /bench/wc/nsK}, each
 * mounted on its partition; plain directories on stock HDFS), so every NameNode answers for
 * its share of the files when the job lists and opens them. Reports each run's map phase (first
 * map start to last map end) and reduce tail (last map end to job end) from the job's task
 * reports, and the wall time.
 */
public final class CoupledWordCountBench {
  private static final String INPUT = "/bench/wc";
  private static final String[] WORDS = ("node partition metadata block gear mount table"
      + " namespace replica file directory subtree coupling power data client").split(" ");

  private final CoupledWordCountRequest request;
  private final PrintStream err;

  public CoupledWordCountBench(CoupledWordCountRequest request, PrintStream err) {
    this.request = request;
    this.err = err;
  }

  /** One WordCount run. */
  record Run(String layout, int run, boolean succeeded, long wallMillis, long mapPhaseMillis,
      long reduceTailMillis, long meanMapMillis, int maps, long dataLocalMaps) {
  }

  /** Runs both clusters in turn; @return the report file */
  public File run() throws Exception {
    Files.createDirectories(request.out().toPath());
    List<Run> runs = new ArrayList<>();
    for (MetadataLayout layout : List.of(MetadataLayout.MASTER, MetadataLayout.SDP)) {
      runs.addAll(onCluster(layout));
    }
    return report(runs);
  }

  private List<Run> onCluster(MetadataLayout layout) throws Exception {
    ClusterDirectory dir = new ClusterDirectory(new File(request.out(), "cluster-"
        + layout.word()).getAbsoluteFile());
    Map<String, String> keys = new LinkedHashMap<>(request.featureKeys());
    keys.put("dfs.blocksize", Long.toString(Math.max(1 << 20, request.fileBytes())));
    keys.put("dfs.replication", Integer.toString(Math.min(3, request.nodes())));
    keys.put("yarn.nodemanager.resource.memory-mb", Integer.toString(
        request.containerMemoryMb()));
    NetnsClusterSpec spec = NetnsClusterSpec.builder(request.nodes(),
            DistBundle.libDir(new ClusterLayout(dir.root()).distDir()))
        .yarn(true)
        .nodeMemory(request.nodeMemoryBytes())
        .diskSize(4L << 30)
        .keys(keys)
        .metadata(layout)
        .build();
    err.printf("%s: starting %d nodes%n", layout.word(), request.nodes());
    try {
      NetnsClusterProcess.start(dir, spec, request.home(), err);
      Configuration conf = NetnsBenchClusters.clientConfiguration(dir);
      conf.set("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
      conf.setBoolean("mapreduce.input.fileinputformat.input.dir.recursive", true);
      List<String> partitions = layout.coupled()
          ? List.copyOf(conf.getTrimmedStringCollection("dfs.nameservices")) : List.of();
      List<Path> dirs = inputDirectories(conf, partitions);
      long start = System.nanoTime();
      writeInput(conf, dirs);
      err.printf("%s: %d files written in %.1f s%n", layout.word(), request.files(),
          (System.nanoTime() - start) / 1e9);
      List<Run> runs = new ArrayList<>();
      for (int r = 1; r <= request.runs(); r++) {
        Job job = WordCount.create(new Configuration(conf), new Path(INPUT),
            new Path("/bench/out-" + r), Math.max(1, request.nodes()));
        JobOutcome outcome = JobOutcome.run(job, false);
        JobTimeline t = outcome.timeline();
        Run run = new Run(layout.word(), r, outcome.succeeded(), outcome.wallMillis(),
            t.mapPhaseMillis(), t.afterMapsMillis(), t.meanMapMillis(), t.maps(),
            outcome.dataLocalMaps());
        err.printf("%s run %d: %s%n", layout.word(), r, run);
        runs.add(run);
      }
      return runs;
    } finally {
      NetnsBenchClusters.stopQuietly(dir, err);
    }
  }

  /**
   * @return one input directory per partition, each mounted on its partition (coupled), or
   *     as many plain directories (stock)
   */
  private List<Path> inputDirectories(Configuration conf, List<String> partitions)
      throws IOException {
    List<Path> dirs = new ArrayList<>();
    int count = partitions.isEmpty() ? request.nodes() : partitions.size();
    try (MountTableAdmin admin = partitions.isEmpty() ? null : new MountTableAdmin(conf)) {
      for (int k = 1; k <= count; k++) {
        String dir = INPUT + "/ns" + k;
        if (admin != null) {
          admin.add(dir, partitions.get(k - 1), false);
        }
        dirs.add(new Path(dir));
      }
    }
    return dirs;
  }

  private void writeInput(Configuration conf, List<Path> dirs) throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(request.writers());
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < request.writers(); w++) {
        int writer = w;
        done.add(writers.submit(() -> {
          Random random = new Random(writer);
          for (int i = writer; i < request.files(); i += request.writers()) {
            try (FSDataOutputStream out = fs.create(new Path(dirs.get(i % dirs.size()),
                "f" + i))) {
              out.write(text(random));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      writers.shutdownNow();
    }
  }

  private byte[] text(Random random) {
    StringBuilder text = new StringBuilder(request.fileBytes() + 16);
    while (text.length() < request.fileBytes()) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(8) == 0 ? '\n'
          : ' ');
    }
    text.setLength(request.fileBytes());
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private File report(List<Run> runs) throws IOException {
    StringBuilder md = new StringBuilder("# WordCount over coupled nodes (seed 004 §5.2)\n\n");
    md.append(String.format(Locale.ROOT, "%d netns nodes with YARN (%d MiB of containers each),"
        + " %d one-block files of %d bytes under %s, one directory per node; %d run(s) per"
        + " cluster.%n%n", request.nodes(), request.containerMemoryMb(), request.files(),
        request.fileBytes(), INPUT, request.runs()));
    md.append("| metadata | run | ok | maps | data-local | map phase s | reduce tail s |"
        + " mean map s | wall s |\n|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
    StringBuilder json = new StringBuilder("{\"runs\": [\n");
    for (int i = 0; i < runs.size(); i++) {
      Run r = runs.get(i);
      md.append(String.format(Locale.ROOT, "| %s | %d | %s | %d | %d | %.1f | %.1f | %.2f |"
          + " %.1f |%n", r.layout(), r.run(), r.succeeded() ? "yes" : "no", r.maps(),
          r.dataLocalMaps(), r.mapPhaseMillis() / 1e3, r.reduceTailMillis() / 1e3,
          r.meanMapMillis() / 1e3, r.wallMillis() / 1e3));
      json.append(String.format(Locale.ROOT, "  {\"metadata\": \"%s\", \"run\": %d,"
          + " \"succeeded\": %b, \"maps\": %d, \"dataLocalMaps\": %d, \"mapPhaseMillis\": %d,"
          + " \"reduceTailMillis\": %d, \"meanMapMillis\": %d, \"wallMillis\": %d}%s%n",
          r.layout(), r.run(), r.succeeded(), r.maps(), r.dataLocalMaps(), r.mapPhaseMillis(),
          r.reduceTailMillis(), r.meanMapMillis(), r.wallMillis(),
          i + 1 < runs.size() ? "," : ""));
    }
    json.append("]}\n");
    Files.writeString(new File(request.out(), "results.json").toPath(), json);
    File md5 = new File(request.out(), "report.md");
    Files.writeString(md5.toPath(), md);
    return md5;
  }
}
