package org.locus.bench.metadata;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.bench.run.NetnsBenchClusters;
import org.locus.ndcoupling.fatbtree.client.FatBtreePartitionResolver;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.PartitionedNamespace;

/**
 * One node's client of {@code locus bench metadata}, run as its own JVM inside the node's
 * namespace and cgroups (so its CPU counts against the node's cap, as the seed's clients ran on
 * its nodes). Seed 004 §5.3, Table 5: the write phase creates this node's share of the files
 * (file {@code i} belongs to node {@code i mod N + 1}), each {@code B} bytes at replication 1;
 * the read phase looks up and reads <em>every</em> file of every node in an order of its own.
 * Both phases start at a barrier (files in {@code SYNC_DIR}) so that all nodes' clients run
 * together, after a warm-up that is not measured. Every byte read is compared with what was
 * written (contents derive from the path); a mismatch or a missing file ends with exit 1.
 *
 * <p>Prints {@code result phase=write|read ops=N start_ms=T end_ms=T} per phase (wall clock
 * in ms since the epoch: the clients run on one host, so their clocks agree).
 *
 * <p>Arguments: {@code CLUSTER_DIR LAYOUT NODE_INDEX NODES FILES BYTES RUN_DIR SYNC_DIR SEED}.
 */
public final class MetadataBenchClient {
  private static final int WARM_UP_FILES = 8;
  private static final long BARRIER_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(15);

  private final MetadataLayoutUnderTest layout;
  private final int node;
  private final int nodes;
  private final int files;
  private final int bytes;
  private final String runDir;
  private final Map<Integer, FileSystem> partitions = new HashMap<>();
  private final FatBtreePartitionResolver resolver;

  private MetadataBenchClient(Configuration conf, MetadataLayoutUnderTest layout, int node,
      int nodes, int files, int bytes, String runDir) throws IOException {
    this.layout = layout;
    this.node = node;
    this.nodes = nodes;
    this.files = files;
    this.bytes = bytes;
    this.runDir = runDir;
    for (int p = 1; p <= nodes; p++) {
      partitions.put(p, FileSystem.newInstance(partitionUri(p), conf));
    }
    resolver = layout == MetadataLayoutUnderTest.FATBTREE
        ? FatBtreePartitionResolver.connect(conf, node) : null;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 9) {
      System.err.println("usage: MetadataBenchClient CLUSTER_DIR LAYOUT NODE_INDEX NODES FILES"
          + " BYTES RUN_DIR SYNC_DIR SEED");
      System.exit(2);
    }
    Configuration conf = NetnsBenchClusters.clientConfiguration(
        new ClusterDirectory(new File(args[0])));
    // a one-block file's close waits for the block to be COMPLETE; HDFS's first back-off is
    // 400 ms, which would time the back-off instead of the NameNode (DESIGN-NOTES)
    conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 20);
    int node = Integer.parseInt(args[2]);
    MetadataBenchClient client = new MetadataBenchClient(conf,
        MetadataLayoutUnderTest.of(args[1]), node, Integer.parseInt(args[3]),
        Integer.parseInt(args[4]), Integer.parseInt(args[5]), args[6]);
    StartBarrier barrier = new StartBarrier(new File(args[7]), client.nodes,
        BARRIER_TIMEOUT_MS);
    long seed = Long.parseLong(args[8]);
    try {
      client.prepare();
      barrier.await("write", node);
      long start = System.currentTimeMillis();
      int written = client.writeShare();
      long end = System.currentTimeMillis();
      System.out.printf(Locale.ROOT, "result phase=write ops=%d start_ms=%d end_ms=%d%n",
          written, start, end);
      barrier.await("read", node);
      start = System.currentTimeMillis();
      int read = client.readAll(new Random(seed * 1_000_003L + node));
      end = System.currentTimeMillis();
      System.out.printf(Locale.ROOT, "result phase=read ops=%d start_ms=%d end_ms=%d%n",
          read, start, end);
    } catch (ReadBackMismatch e) {
      System.err.println(e.getMessage());
      System.exit(1);
    } catch (Exception e) {
      // the trace first, then one line per cause last, where the bench's tail of this log
      // shows them (a deep RPC trace alone hid which exception it was)
      e.printStackTrace();
      for (Throwable t = e; t != null; t = t.getCause()) {
        System.err.println("failed: " + t);
      }
      System.exit(1);
    } finally {
      client.close();
    }
  }

  /** The file names of node {@code k} (1-based): file i belongs to node i mod N + 1. */
  static List<String> share(String runDir, int k, int nodes, int files) {
    List<String> out = new ArrayList<>();
    for (int i = k - 1; i < files; i += nodes) {
      out.add(runDir + "/node" + k + "/f" + i);
    }
    return out;
  }

  /** The bytes of {@code path}: the same every time, different per path. */
  static byte[] contents(String path, int bytes) {
    byte[] data = new byte[bytes];
    new Random(path.hashCode() * 0x9E3779B97F4A7C15L).nextBytes(data);
    return data;
  }

  /** Static directory partitioning: {@code RUN_DIR/nodeK/...} lives on partition K. */
  int mountedPartition(String path) {
    String rest = path.substring(runDir.length() + "/node".length());
    return Integer.parseInt(rest.substring(0, rest.indexOf('/')));
  }

  /** Where this node's new files go. */
  private int ownPartition() {
    return layout == MetadataLayoutUnderTest.SINGLE ? 1 : node;
  }

  /** Makes this node's directory (assigned to its partition in the index) and warms up. */
  private void prepare() throws IOException {
    String dir = runDir + "/node" + node;
    partitions.get(ownPartition()).mkdirs(new Path(dir));
    if (resolver != null) {
      resolver.assignSubtree(dir, node);
    }
    String warmDir = runDir + "-warm-up/node" + node;
    FileSystem fs = partitions.get(ownPartition());
    for (int i = 0; i < WARM_UP_FILES; i++) {
      String path = warmDir + "/w" + i;
      write(fs, path);
      if (resolver != null) {
        resolver.register(path, ownPartition());
        resolver.entryOf(path);
      }
      read(fs, path);
    }
  }

  private int writeShare() throws IOException {
    FileSystem fs = partitions.get(ownPartition());
    int n = 0;
    for (String path : share(runDir, node, nodes, files)) {
      write(fs, path);
      if (resolver != null) {
        resolver.register(path, ownPartition());
      }
      n++;
    }
    return n;
  }

  private int readAll(Random random) throws IOException {
    List<String> all = new ArrayList<>(files);
    for (int k = 1; k <= nodes; k++) {
      all.addAll(share(runDir, k, nodes, files));
    }
    Collections.shuffle(all, random);
    for (String path : all) {
      read(partitions.get(partitionOf(path)), path);
    }
    return all.size();
  }

  private int partitionOf(String path) throws IOException {
    switch (layout) {
      case SINGLE:
        return 1;
      case SDP:
        return mountedPartition(path);
      default:
        OptionalInt owner = resolver.entryOf(path);
        if (owner.isEmpty()) {
          throw new ReadBackMismatch(path + " is not in the Fat-Btree index (asked at node "
              + node + ")");
        }
        return owner.getAsInt();
    }
  }

  private void write(FileSystem fs, String path) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path), true, 4096, (short) 1,
        fs.getDefaultBlockSize(new Path(path)))) {
      out.write(contents(path, bytes));
    }
  }

  private void read(FileSystem fs, String path) throws IOException {
    byte[] expected = contents(path, bytes);
    byte[] actual = new byte[bytes];
    try (FSDataInputStream in = fs.open(new Path(path))) {
      in.readFully(0, actual);
      if (in.read(bytes, new byte[1], 0, 1) > 0) {
        throw new ReadBackMismatch(path + " on " + fs.getUri() + " is longer than the " + bytes
            + " bytes written");
      }
    }
    if (!Arrays.equals(expected, actual)) {
      throw new ReadBackMismatch(path + " on " + fs.getUri() + " does not read back the bytes"
          + " written");
    }
  }

  private void close() throws IOException {
    if (resolver != null) {
      resolver.close();
    }
    for (FileSystem fs : partitions.values()) {
      fs.close();
    }
  }

  private static final class ReadBackMismatch extends IOException {
    ReadBackMismatch(String message) {
      super(message);
    }
  }

  /** @return the file system of partition {@code k} ({@code hdfs://nsk}) */
  static URI partitionUri(int k) {
    return PartitionedNamespace.uri(PartitionedNamespace.nameservice("node" + k));
  }
}
