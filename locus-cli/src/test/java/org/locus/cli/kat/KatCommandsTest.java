package org.locus.cli.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.locus.cli.CliRun;
import org.locus.cli.cluster.FeatureCatalog;
import org.locus.kit.LocusMiniCluster;

/**
 * The {@code locus kat} commands and {@code locus job --kat} as an operator uses them, against a
 * cluster started with KAT's documented key set ({@code conf/features/kat.xml}); the steps build
 * on each other and run in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KatCommandsTest {
  private static final File WORK = new File("target/test-clusters/kat-cli").getAbsoluteFile();
  private static LocusMiniCluster cluster;
  private static String conf;

  @BeforeAll
  static void startClusterWithTheKatFeature() throws Exception {
    cluster = LocusMiniCluster.builder(new File(WORK, "cluster"))
        .nodes(4)
        .volumes(StorageType.DISK)
        .yarn(true)
        .nodeManagerMemoryMb(3072)
        .setAll(FeatureCatalog.installed().keysOf("kat"))
        .set("dfs.blocksize", "262144")
        .set("dfs.replication", "2")
        .start();
    File confDir = new File(WORK, "conf");
    cluster.writeClientConfiguration(confDir);
    conf = confDir.getPath();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      text.append("w").append(i % 97).append(' ').append("w").append((i * 7) % 31).append('\n');
    }
    Files.writeString(new File(WORK, "corpus.txt").toPath(), text);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String[] run(int expectedExit, String... args) {
    CliRun run = CliRun.inProcessExpecting(expectedExit, args);
    return new String[] {run.out(), run.err()};
  }

  @Test
  @Order(1)
  void importFromALocalFileReportsEveryOwner() {
    String out = run(0, "kat", "import", "--conf", conf, "--extractor", "wordcount",
        "--input", new File(WORK, "corpus.txt").getPath(), "--output", "/kat/words",
        "--queues", "central")[0];
    assertTrue(out.contains("imported"), out);
    for (String host : new String[] {"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"}) {
      assertTrue(out.contains(host), host + " owns data:\n" + out);
    }
  }

  @Test
  @Order(2)
  void verifyFindsNoSplitKeys() {
    String out = run(0, "kat", "verify", "--conf", conf, "--path", "/kat/words", "--top", "3")[0];
    assertTrue(out.contains("keys split across nodes: 0"), out);
    assertTrue(out.contains("keys 97,"), "w0..w96 (w0..w30 twice):\n" + out);
  }

  @Test
  @Order(3)
  void keyAwareWordCountKeepsTheShuffleOnTheHost() {
    String out = run(0, "job", "wordcount", "--conf", conf, "--input", "/kat/words",
        "--output", "/out/wc", "--kat", "--no-combiner")[0];
    Matcher row = Pattern.compile("locus-wordcount\\s+ok\\s+[\\d.]+ s\\s+(\\d+)\\s+(\\d+)\\s+\\d+"
        + "\\s+[\\d.]+ \\S+\\s+(\\d+(?:\\.\\d)? \\S+)").matcher(out);
    assertTrue(row.find(), out);
    assertEquals(row.group(1), row.group(2), "every map data-local:\n" + out);
    // Only the framing of empty map-output segments may cross hosts: bytes, not KiB.
    assertTrue(row.group(3).endsWith(" B"), "cross-host shuffle " + row.group(3) + ":\n" + out);
  }

  @Test
  @Order(4)
  void rebalanceWithUnchangedMembershipMovesNothing() {
    String out = run(0, "kat", "rebalance", "--conf", conf, "--path", "/kat/words")[0];
    assertTrue(out.contains("moved 0 of"), out);
  }

  @Test
  @Order(5)
  void verifyOfAPlainDirectorySaysItIsNoKatDataset() {
    String err = run(1, "kat", "verify", "--conf", conf, "--path", "/out/wc")[1];
    assertTrue(err.contains("is not a KAT dataset"), err);
  }

  @Test
  @Order(6)
  void aFilePutIntoAManagedDatasetIsOrganizedByKey() throws Exception {
    String managed = run(0, "kat", "manage", "--conf", conf, "--path", "/kat/landing",
        "--extractor", "wordcount", "--buckets", "8")[0];
    assertTrue(managed.contains("managing /kat/landing: key hint wordcount, 8 buckets over 4"
        + " hosts"), managed);
    run(0, "fs", "--conf", conf, "-put", new File(WORK, "corpus.txt").getPath(),
        "/kat/landing/corpus.txt");
    String organized = run(0, "kat", "organize", "--conf", conf, "--path", "/kat/landing",
        "--until-idle", "1")[0];
    assertTrue(organized.contains("organized 1 files"), organized);
    String verify = run(0, "kat", "verify", "--conf", conf, "--path", "/kat/landing")[0];
    assertTrue(verify.contains("keys split across nodes: 0"), verify);
    assertTrue(verify.contains("keys 97,"), verify);
  }

  @Test
  @Order(7)
  void manageAndOrganizeRefuseWhatTheyCannotUse() {
    String exists = run(1, "kat", "manage", "--conf", conf, "--path", "/kat/words",
        "--extractor", "wordcount")[1];
    assertTrue(exists.contains("already exists"), exists);
    String notADataset = run(1, "kat", "organize", "--conf", conf, "--path", "/out/wc",
        "--until-idle", "1")[1];
    assertTrue(notADataset.contains("is not a KAT dataset"), notADataset);
    String noPath = run(2, "kat", "organize", "--conf", conf)[1];
    assertTrue(noPath.contains("--path DIR is required"), noPath);
  }
}
