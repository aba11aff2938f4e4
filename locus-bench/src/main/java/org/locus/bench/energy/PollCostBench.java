package org.locus.bench.energy;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs.BlockReportReplica;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.server.datanode.SimulatedFSDataset;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.locus.bench.BenchException;
import org.locus.bench.report.TextTable;
import org.locus.energy.datanode.PrimaryDataProgress;

/**
 * The poll-cost micro-benchmark ({@code locus bench energy-poll}): what one wake-predictor poll
 * costs as a DataNode's replica count grows — the per-volume usage counters the predictor reads now
 * against the walk over every replica it did before. The dataset is Hadoop's {@code
 * SimulatedFSDataset} (in-memory replicas behind the same {@code FsDatasetSpi} interface a DataNode
 * uses; labelled simulated), so a million replicas fit in memory without a million files. It does
 * not implement {@code getFinalizedBlocks}, so the walk is timed over its block report, the same
 * O(replicas) pass; the real {@code FsDatasetImpl} also copies the replica list under its lock.
 */
public final class PollCostBench {
  private static final String BPID = "BP-poll-bench";
  private static final long REPLICA_BYTES = 4096;

  private PollCostBench() {
  }

  /**
   * Times {@code polls} polls each way at 1 000, 10 000, ... replicas up to {@code max} and
   * prints the table on {@code out}.
   */
  public static void run(int max, int polls, PrintStream out) throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(SimulatedFSDataset.CONFIG_PROPERTY_CAPACITY, (max + 1L) * REPLICA_BYTES * 2);
    // one simulated volume; the directory is only named, never created
    conf.set("dfs.datanode.data.dir", "[DISK]file:///locus-poll-bench/primary");
    SimulatedFSDataset dataset = new SimulatedFSDataset(null, conf);
    dataset.addBlockPool(BPID, conf);
    TextTable table = new TextTable("REPLICAS", "COUNTERS (NOW) µs/POLL",
        "REPLICA WALK (BEFORE) µs/POLL",
        "PRIMARY BYTES SEEN");
    long injected = 0;
    for (long size = 1000; size <= max; size *= 10) {
      List<Block> blocks = new ArrayList<>();
      for (long id = injected; id < size; id++) {
        blocks.add(new Block(1_000_000 + id, REPLICA_BYTES, 1001));
      }
      dataset.injectBlocks(BPID, blocks);
      injected = size;
      long counters = 0;
      long walk = 0;
      // warm-up, then time each method over the same number of polls
      PrimaryDataProgress.primaryBytes(dataset, List.of(BPID), 512);
      walk(dataset);
      long start = System.nanoTime();
      for (int i = 0; i < polls; i++) {
        counters += PrimaryDataProgress.primaryBytes(dataset, List.of(BPID), 512);
      }
      long countersNanos = System.nanoTime() - start;
      int walkPolls = (int) Math.max(1, Math.min(polls, 200_000_000L / size));
      start = System.nanoTime();
      for (int i = 0; i < walkPolls; i++) {
        walk += walk(dataset);
      }
      long walkNanos = System.nanoTime() - start;
      if (walk / walkPolls != size * REPLICA_BYTES) {
        throw new BenchException("the replica walk saw " + walk / walkPolls + " bytes, expected "
            + size * REPLICA_BYTES);
      }
      table.row(String.format("%,d", size), String.format("%.1f", countersNanos / 1e3 / polls),
          String.format("%.1f", walkNanos / 1e3 / walkPolls), counters / polls);
    }
    out.printf("One poll of the wake predictor's primary bytes (%d polls per size;"
        + " Hadoop's SimulatedFSDataset, one volume; simulated replicas, real code paths):%n",
        polls);
    table.print(out, "  ");
  }

  /**
   * A walk over every replica, as the former poll did ({@code getFinalizedBlocks}, which this
   * dataset does not implement): here through the block report, the same O(replicas) pass.
   */
  private static long walk(SimulatedFSDataset dataset) {
    long bytes = 0;
    for (Map.Entry<DatanodeStorage, BlockListAsLongs> storage
        : dataset.getBlockReports(BPID).entrySet()) {
      if (storage.getKey().getStorageType() != StorageType.ARCHIVE) {
        for (BlockReportReplica replica : storage.getValue()) {
          bytes += replica.getNumBytes();
        }
      }
    }
    return bytes;
  }
}
