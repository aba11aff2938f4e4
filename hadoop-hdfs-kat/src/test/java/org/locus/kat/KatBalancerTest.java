package org.locus.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.balancer.Balancer;
import org.apache.hadoop.hdfs.server.mover.Mover;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kat.hint.WordCountHint;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.placement.PlacementMap;
import org.locus.kat.verify.PlacementVerifier;
import org.locus.kat.verify.VerifyReport;
import org.locus.kit.LocusMiniCluster;

/**
 * Hadoop's own Balancer and Mover on a cluster holding a placed dataset, with the keys of
 * conf/features/kat.xml: a bucket's replica on its owner is pinned (written with the owner as
 * favored node, DataNode block pinning on), so the Balancer moves plain files' blocks to the
 * nodes that join and leaves every owner replica where it is. Replication 1, so every replica of
 * the dataset is an owner's replica; volumes report 64 MiB, so a few MiB unbalance the nodes.
 * About a minute.
 */
class KatBalancerTest {
  private static final Path CORPUS = new Path("/corpus");
  private static final Path DATASET = new Path("/kat/words");
  private static final Path PLAIN = new Path("/plain/blocks");
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void startClusterAndImport() throws Exception {
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/kat-balancer"))
        .nodes(3)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .volumeCapacity(64L << 20)
        .setAll(LocusMiniCluster.featureKeys("kat"))
        .set("dfs.blocksize", "65536")
        .set("dfs.replication", "1")
        .set("dfs.heartbeat.interval", "1")
        // the Balancer skips blocks under 10 MB by default; these are 64 KiB
        .set("dfs.balancer.getBlocks.min-block-size", "1")
        .start();
    fs = cluster.getFileSystem();
    new ZipfTextGenerator(4000, 1.0, 5).write(fs, CORPUS, 2, 256 * 1024);
    new KatImporter(fs, new WordCountHint(), "wordcount", QueueDesign.CENTRAL, 64, p -> { })
        .run(CORPUS, DATASET);
    try (FSDataOutputStream out = fs.create(PLAIN)) {
      out.write(new byte[40 * 65536]);
    }
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theStockBalancerMovesPlainBlocksToNewNodesAndNoOwnerReplica() throws Exception {
    PlacementMap map = PlacementMap.read(fs, DATASET);
    assertEquals(0, verify(map).blocksOffOwner(), "placed before the Balancer runs");
    Set<String> newHosts = new HashSet<>();
    newHosts.add(cluster.addDataNode().host());
    newHosts.add(cluster.addDataNode().host());
    cluster.getDfsCluster().waitActive();

    String balancer = runBalancer("-threshold", "1");

    assertTrue(balancer.startsWith("exit 0"), balancer);
    int plainBlocksMoved = 0;
    for (BlockLocation block : fs.getFileBlockLocations(PLAIN, 0, Long.MAX_VALUE)) {
      if (newHosts.contains(block.getHosts()[0])) {
        plainBlocksMoved++;
      }
    }
    assertTrue(plainBlocksMoved > 0, "the Balancer moved no plain block to " + newHosts + ":\n"
        + balancer);
    VerifyReport after = verify(map);
    assertEquals(0, after.blocksOffOwner(), "owner replicas moved by the Balancer");
    assertEquals(0, after.splitKeys());
  }

  /**
   * Hadoop's own Mover on a placed dataset whose storage policy changes to COLD (every replica
   * wanted on ARCHIVE): it may move an owner's replica to the owner's own ARCHIVE volume (a
   * move inside one DataNode), never to another node (the pinned replica refuses to be copied
   * away), so every bucket keeps a replica on its owner.
   */
  @Test
  void theStockMoverKeepsEveryOwnerReplicaOnItsOwner() throws Exception {
    Path cold = new Path("/kat/cold");
    new KatImporter(fs, new WordCountHint(), "wordcount", QueueDesign.CENTRAL, 16, p -> { })
        .run(CORPUS, cold);
    PlacementMap map = PlacementMap.read(fs, cold);
    fs.setStoragePolicy(cold, "COLD");

    String mover = runHadoop(Mover.class, "-p", cold.toString());

    VerifyReport after = new PlacementVerifier(fs, new WordCountHint()).verify(cold, map, 3);
    assertEquals(0, after.blocksOffOwner(), "owner replicas moved off their owner by the"
        + " Mover:\n" + mover);
    assertEquals(0, after.splitKeys());
    int archived = 0;
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
        fs.listFiles(cold, true);
    while (files.hasNext()) {
      for (BlockLocation block : files.next().getBlockLocations()) {
        if (Arrays.asList(block.getStorageTypes()).contains(StorageType.ARCHIVE)) {
          archived++;
        }
      }
    }
    assertTrue(archived > 0, "the Mover moved no replica to ARCHIVE, so it did not run:\n"
        + mover);
  }

  /**
   * Runs {@code org.apache.hadoop.hdfs.server.balancer.Balancer} as an operator does
   * ({@code hdfs balancer}): its own JVM, the cluster's client configuration directory first on
   * the classpath. Exit 0: the cluster is balanced, or nothing more can be moved.
   */
  private static String runBalancer(String... args) throws Exception {
    return runHadoop(Balancer.class, args);
  }

  /** Runs a Hadoop tool's main class in its own JVM with the cluster's client configuration. */
  private static String runHadoop(Class<?> main, String... args) throws Exception {
    File conf = new File("target/test-clusters/kat-balancer-client").getAbsoluteFile();
    cluster.writeClientConfiguration(conf);
    java.nio.file.Files.writeString(new File(conf, "log4j.properties").toPath(),
        "log4j.rootLogger=INFO,c\nlog4j.appender.c=org.apache.log4j.ConsoleAppender\n"
        + "log4j.appender.c.layout=org.apache.log4j.PatternLayout\n"
        + "log4j.appender.c.layout.ConversionPattern=%d{HH:mm:ss} %p %c{1} - %m%n\n");
    java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(
        new File(System.getProperty("java.home"), "bin/java").getPath(), "-cp",
        conf.getPath() + File.pathSeparator + System.getProperty("java.class.path"),
        main.getName()));
    command.addAll(Arrays.asList(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(),
        java.nio.charset.StandardCharsets.UTF_8);
    return "exit " + process.waitFor() + "\n" + output;
  }

  private static VerifyReport verify(PlacementMap map) throws Exception {
    return new PlacementVerifier(fs, new WordCountHint()).verify(DATASET, map, 3);
  }

}
