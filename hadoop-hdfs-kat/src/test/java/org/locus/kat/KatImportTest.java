package org.locus.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.kat.hint.KeyHint;
import org.locus.kat.hint.KeyHints;
import org.locus.kat.hint.WordCountHint;
import org.locus.kat.ingest.ImportReport;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.OwnerReplicas;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.placement.OwnerPaths;
import org.locus.kat.placement.PlacementMap;
import org.locus.kat.verify.PlacementVerifier;
import org.locus.kat.verify.VerifyReport;
import org.locus.kit.LocusMiniCluster;

/** Importing into KAT datasets on 4 hosts: placement, content, atomicity, refusals. */
class KatImportTest {
  private static final Path CORPUS = new Path("/corpus");
  private static LocusMiniCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = LocusMiniCluster.builder(new File("target/test-clusters/kat-import"))
        .nodes(4)
        .set("dfs.blocksize", "131072")
        .set("dfs.replication", "2")
        .set("dfs.block.replicator.classname",
            "org.apache.hadoop.hdfs.server.blockmanagement.KeyAwareBlockPlacementPolicy")
        .set("dfs.namenode.plugins", "org.locus.kat.namenode.KatNameNodePlugin")
        .volumes(StorageType.DISK)
        .start();
    fs = cluster.getFileSystem();
    new ZipfTextGenerator(2000, 1.0, 3).write(fs, CORPUS, 3, 200 * 1024);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static ImportReport importWith(KeyHint hint, String spec, QueueDesign design,
      Path input, Path output) throws IOException {
    return new KatImporter(fs, hint, spec, design, 32, p -> { }).run(input, output);
  }

  private static VerifyReport verify(Path dataset, String spec) throws IOException {
    return new PlacementVerifier(fs, KeyHints.parse(spec, fs.getConf()))
        .verify(dataset, PlacementMap.read(fs, dataset), 5);
  }

  @Test
  void centralQueuesPlaceAllRecordsOfAKeyOnOneNode() throws Exception {
    Path dataset = new Path("/kat/central");
    importWith(new WordCountHint(), "wordcount", QueueDesign.CENTRAL, CORPUS, dataset);
    VerifyReport report = verify(dataset, "wordcount");
    assertEquals(0, report.splitKeys());
    assertEquals(0, report.misplacedBuckets());
    assertEquals(0, report.blocksOffOwner());
    assertEquals(4, report.bytesPerHost().size(), "every host owns data: "
        + report.bytesPerHost());
  }

  @Test
  void distributedQueuesPlaceAllRecordsOfAKeyOnOneNode() throws Exception {
    Path dataset = new Path("/kat/distributed");
    importWith(new WordCountHint(), "wordcount", QueueDesign.DISTRIBUTED, CORPUS, dataset);
    VerifyReport report = verify(dataset, "wordcount");
    assertEquals(0, report.splitKeys());
    assertEquals(0, report.blocksOffOwner());
  }

  @Test
  void bothDesignsStoreExactlyTheSameRecordsAsTheInputTokens() throws Exception {
    Path central = new Path("/kat/same-central");
    Path distributed = new Path("/kat/same-distributed");
    ImportReport a = importWith(new WordCountHint(), "wordcount", QueueDesign.CENTRAL, CORPUS,
        central);
    importWith(new WordCountHint(), "wordcount", QueueDesign.DISTRIBUTED, CORPUS, distributed);
    List<String> tokens = new ArrayList<>();
    for (String line : readTree(CORPUS)) {
      tokens.addAll(Arrays.asList(line.trim().split("\\s+")));
    }
    Collections.sort(tokens);
    assertEquals(tokens, sorted(readTree(central)));
    assertEquals(tokens, sorted(readTree(distributed)));
    assertEquals(tokens.size(), a.records());
  }

  @Test
  void grepDatasetKeepsEveryMatchWithItsKey() throws Exception {
    String spec = "grep:\\bw1[0-9a-z]?\\b";
    Path dataset = new Path("/kat/grep");
    importWith(KeyHints.parse(spec, fs.getConf()), spec, QueueDesign.CENTRAL, CORPUS, dataset);
    assertEquals(0, verify(dataset, spec).splitKeys());
  }

  @Test
  void importsFromALocalFile() throws Exception {
    File local = File.createTempFile("kat-local", ".txt");
    Files.writeString(local.toPath(), "alpha beta\nbeta gamma\n");
    Path dataset = new Path("/kat/from-local");
    ImportReport report = importWith(new WordCountHint(), "wordcount", QueueDesign.CENTRAL,
        new Path(local.toURI()), dataset);
    assertEquals(4, report.records());
    assertEquals(List.of("alpha", "beta", "beta", "gamma"), sorted(readTree(dataset)));
    local.delete();
  }

  @Test
  void aWriterWithoutFavoredNodesUnderADeclaredDatasetGetsTheOwnerAsReplica() throws Exception {
    OwnerPaths.declare(fs, new Path("/kat/written-back"));
    for (String owner : List.of("127.0.0.3", "127.0.0.5")) {
      Path file = new Path("/kat/written-back/owner=" + owner + "/part-r-00000");
      try (FSDataOutputStream out = fs.create(file)) {
        out.write(new byte[400 * 1024]);
      }
      // The owner's replica is reported shortly after close; wait for it, bounded.
      boolean onOwner = OwnerReplicas.await(fs, file, owner, 30_000);
      BlockLocation[] blocks = fs.getFileBlockLocations(file, 0, Long.MAX_VALUE);
      assertTrue(blocks.length >= 3);
      StringBuilder hosts = new StringBuilder();
      for (BlockLocation block : blocks) {
        hosts.append(Arrays.toString(block.getHosts()));
      }
      assertTrue(onOwner, owner + " holds every block: " + hosts);
    }
  }

  @Test
  void aFailingImportLeavesNothingThatLooksLikeADataset() throws Exception {
    KatImporter failing = failingAtRecord(5000);
    Path dataset = new Path("/kat/failed/dataset");
    fs.mkdirs(dataset.getParent());
    assertThrows(IOException.class, () -> failing.run(CORPUS, dataset));
    assertFalse(fs.exists(dataset));
    assertEquals(0, fs.listStatus(dataset.getParent()).length, "no staging directory left");
  }

  @Test
  void anAppendPutsNewRecordsInTheirKeysBucketsAndKeepsEveryKeyOnOneNode() throws Exception {
    Path more = new Path("/corpus-more");
    new ZipfTextGenerator(2500, 1.0, 4).write(fs, more, 2, 100 * 1024);
    Path dataset = new Path("/kat/appended");
    importWith(new WordCountHint(), "wordcount", QueueDesign.DISTRIBUTED, CORPUS, dataset);
    PlacementMap before = PlacementMap.read(fs, dataset);

    ImportReport appended = new KatImporter(fs, new WordCountHint(), "wordcount",
        QueueDesign.CENTRAL, 32, p -> { }).append(more, dataset);

    List<String> tokens = new ArrayList<>();
    for (String line : readTree(CORPUS)) {
      tokens.addAll(Arrays.asList(line.trim().split("\\s+")));
    }
    int firstImport = tokens.size();
    for (String line : readTree(more)) {
      tokens.addAll(Arrays.asList(line.trim().split("\\s+")));
    }
    Collections.sort(tokens);
    assertEquals(tokens, sorted(readTree(dataset)), "old and new records, each once");
    assertEquals(tokens.size() - firstImport, appended.records());
    assertEquals(before, PlacementMap.read(fs, dataset), "owners do not change");
    VerifyReport report = verify(dataset, "wordcount");
    assertEquals(0, report.splitKeys());
    assertEquals(0, report.misplacedBuckets());
    assertEquals(0, report.blocksOffOwner());
  }

  @Test
  void anAppendThatFailsMidwayLeavesEveryBucketFileAsItWas() throws Exception {
    Path dataset = new Path("/kat/append-failed");
    importWith(new WordCountHint(), "wordcount", QueueDesign.CENTRAL, CORPUS, dataset);
    java.util.Map<String, String> before = contentOfEachFile(dataset);
    KatImporter failing = failingAtRecord(5000);

    IOException failure = assertThrows(IOException.class, () -> failing.append(CORPUS, dataset));

    assertEquals("write failed on purpose", failure.getMessage());
    assertEquals(before, contentOfEachFile(dataset), "every bucket file as before the append");
  }

  @Test
  void anAppendWithAnotherHintOrToSomethingElseIsRefused() throws Exception {
    Path dataset = new Path("/kat/append-refusals");
    importWith(new WordCountHint(), "wordcount", QueueDesign.CENTRAL, CORPUS, dataset);
    String spec = "grep:\\bw1\\b";
    IOException otherHint = assertThrows(IOException.class, () -> new KatImporter(fs,
        KeyHints.parse(spec, fs.getConf()), spec, QueueDesign.CENTRAL, 32, p -> { })
        .append(CORPUS, dataset));
    assertTrue(otherHint.getMessage().contains("imported with key hint 'wordcount'"),
        otherHint.getMessage());
    IOException notADataset = assertThrows(IOException.class, () -> new KatImporter(fs,
        new WordCountHint(), "wordcount", QueueDesign.CENTRAL, 32, p -> { })
        .append(CORPUS, CORPUS));
    assertTrue(notADataset.getMessage().contains("is not a KAT dataset"),
        notADataset.getMessage());
  }

  /** A wordcount importer whose write of record {@code n} fails, as a lost stream would. */
  private static KatImporter failingAtRecord(int n) {
    int[] written = {0};
    return new KatImporter(fs, new WordCountHint(), "wordcount", QueueDesign.DISTRIBUTED, 32,
        p -> { })
        .observeWrites((bucket, owner, bytes) -> {
          if (++written[0] == n) {
            throw new IOException("write failed on purpose");
          }
        });
  }

  /** Path → MD5 of the content of every visible file below {@code dir}. */
  private static java.util.Map<String, String> contentOfEachFile(Path dir) throws Exception {
    java.util.Map<String, String> digests = new java.util.TreeMap<>();
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
        fs.listFiles(dir, true);
    while (files.hasNext()) {
      Path file = files.next().getPath();
      try (java.io.InputStream in = fs.open(file)) {
        digests.put(file.toString(),
            org.apache.hadoop.io.MD5Hash.digest(in).toString());
      }
    }
    return digests;
  }

  @Test
  void badInputIsRefusedNamingWhatIsWrong() throws Exception {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> KeyHints.parse("sentiment", fs.getConf()));
    assertTrue(unknown.getMessage().contains("unknown key extractor 'sentiment'"));
    IllegalArgumentException missingClass = assertThrows(IllegalArgumentException.class,
        () -> KeyHints.parse("class:com.example.Nope", fs.getConf()));
    assertTrue(missingClass.getMessage().contains("com.example.Nope is not on the classpath"));
    IllegalArgumentException notAHint = assertThrows(IllegalArgumentException.class,
        () -> KeyHints.parse("class:java.lang.String", fs.getConf()));
    assertTrue(notAHint.getMessage().contains("does not implement"));
    IllegalArgumentException regex = assertThrows(IllegalArgumentException.class,
        () -> KeyHints.parse("grep:w(1", fs.getConf()));
    assertTrue(regex.getMessage().contains("invalid regular expression 'w(1'"));
    FileNotFoundException missing = assertThrows(FileNotFoundException.class,
        () -> importWith(new WordCountHint(), "wordcount", QueueDesign.CENTRAL,
            new Path("/no/such/input"), new Path("/kat/never")));
    assertTrue(missing.getMessage().contains("does not exist"));
    IOException exists = assertThrows(IOException.class,
        () -> importWith(new WordCountHint(), "wordcount", QueueDesign.CENTRAL, CORPUS,
            CORPUS));
    assertTrue(exists.getMessage().contains("already exists"));
    assertFalse(fs.exists(new Path("/kat/never")));
  }

  private static List<String> sorted(List<String> lines) {
    List<String> copy = new ArrayList<>(lines);
    Collections.sort(copy);
    return copy;
  }

  private static List<String> readTree(Path dir) throws IOException {
    return readTreeOf(fs, dir);
  }

  /** Every line of every visible file below {@code dir}. */
  static List<String> readTreeOf(DistributedFileSystem fs, Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FileStatus status : fs.listStatus(dir)) {
      String name = status.getPath().getName();
      if (name.startsWith("_") || name.startsWith(".")) {
        continue;
      }
      if (status.isDirectory()) {
        lines.addAll(readTreeOf(fs, status.getPath()));
      } else {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
            fs.open(status.getPath()), StandardCharsets.UTF_8))) {
          in.lines().forEach(lines::add);
        }
      }
    }
    return lines;
  }
}
