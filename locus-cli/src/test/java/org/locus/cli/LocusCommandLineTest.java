package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Command-line handling that needs no cluster: help, usage errors, refusals. */
class LocusCommandLineTest {
  @TempDir
  File tmp;

  @ParameterizedTest
  @ValueSource(strings = {"--help", "cluster --help", "cluster up --help",
      "cluster status --help", "cluster down --help", "fs --help", "fsck --help",
      "job --help", "job wordcount --help", "job grep --help", "bench --help",
      "bench energy --help", "bench spindown --help", "bench checksum --help",
      "bench zone-jobs --help", "kat --help", "kat import --help", "kat verify --help", "kat rebalance --help",
      "demo --help", "mount --help", "mount list --help", "mount add --help",
      "mount remove --help", "bench wordcount --help"})
  void everyCommandAnswersHelpWithUsageAndExitZero(String words) {
    CliRun run = CliRun.inProcess(words.split(" "));
    assertEquals(0, run.exitCode(), run.toString());
    assertTrue(run.out().startsWith("usage: locus"), run.toString());
  }

  @Test
  void mountAddNeedsAPathAndAPartitionBeforeItTouchesACluster() {
    CliRun run = CliRun.inProcess("mount", "add", "/logs", "--conf", tmp.getPath());
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains("mount add takes PATH PARTITION"), run.err());
  }

  @Test
  void benchesOfOneBlockFilesRefuseAFileSizeBeyondABlockOrNotASizeBeforeAnyCluster() {
    for (String bench : new String[] {"gears", "wordcount"}) {
      CliRun tooBig = CliRun.inProcess("bench", bench, "--file-size", "300m");
      assertEquals(2, tooBig.exitCode(), tooBig.toString());
      assertTrue(tooBig.err().contains("--file-size must be 1..256m (one block), got 300m"),
          tooBig.err());
      CliRun notASize = CliRun.inProcess("bench", bench, "--file-size", "big");
      assertEquals(2, notASize.exitCode(), notASize.toString());
      assertTrue(notASize.err().contains("--file-size needs a size like 64k or 1m, got 'big'"),
          notASize.err());
    }
  }

  @Test
  void gearBenchRefusesWholeNodesOnFewerThanThreeNodesBeforeAnyCluster() {
    CliRun fbb = CliRun.inProcess("bench", "gears", "--nodes", "2", "--configs", "sbb,fbb",
        "--whole-nodes", "--out", new File(tmp, "gears-whole").getPath());
    assertEquals(2, fbb.exitCode(), fbb.toString());
    assertTrue(fbb.err().contains("--whole-nodes needs at least 3 nodes (partitions and"
        + " Fat-Btree index nodes have copies from three coupled nodes on), got 2"), fbb.err());
    assertFalse(new File(tmp, "gears-whole").exists(), "no report directory made");
  }

  @Test
  void unknownCommandIsAUsageError() {
    CliRun run = CliRun.inProcess("clutser", "up");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("unknown command 'clutser'"), run.err());
    assertTrue(run.err().contains("one of: cluster, fs, fsck, job, kat, bench"), run.err());
  }

  @Test
  void unknownSubcommandIsAUsageError() {
    CliRun run = CliRun.inProcess("cluster", "restart");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("unknown subcommand 'restart'; one of: up, status, down"),
        run.err());
  }

  @Test
  void unknownFlagIsAUsageError() {
    CliRun run = CliRun.inProcess("cluster", "up", "--dir", tmp.getPath(), "--nodez", "3");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--nodez"), run.err());
    assertTrue(run.err().contains("Try 'locus cluster up --help'"), run.err());
  }

  @Test
  void clusterUpRefusesBadNetnsLimitsAndNetnsOptionsWithoutNetns() {
    CliRun type = CliRun.inProcess("cluster", "up", "--netns", "--dir", "target/no-cluster",
        "--replicated-volume", "ram_disk");
    assertEquals(2, type.exitCode(), type.toString());
    assertTrue(type.err().contains("unknown storage type 'ram_disk' for --replicated-volume;"
        + " one of ") && type.err().contains("NVDIMM") && !type.err().contains("RAM_DISK"),
        type.err());
    CliRun cpus = CliRun.inProcess("cluster", "up", "--netns", "--dir", "target/no-cluster",
        "--node-cpus", "half");
    assertEquals(2, cpus.exitCode(), cpus.toString());
    assertTrue(cpus.err().contains("unknown CPU limit 'half' for --node-cpus"), cpus.err());
    CliRun embedded = CliRun.inProcess("cluster", "up", "--dir", "target/no-cluster",
        "--node-cpus", "0.5");
    assertEquals(2, embedded.exitCode(), embedded.toString());
    assertTrue(embedded.err().contains("--node-cpus needs --netns"), embedded.err());
    assertFalse(new java.io.File("target/no-cluster").exists(), "nothing was created");
  }

  @Test
  void benchKatRefusesAnUnknownClusterKindAndShapingWithoutNetns() {
    CliRun kind = CliRun.inProcess("bench", "kat", "--cluster", "yarn");
    assertEquals(2, kind.exitCode(), kind.toString());
    assertTrue(kind.err().contains("--cluster takes embedded or netns, not 'yarn'"),
        kind.err());
    CliRun link = CliRun.inProcess("bench", "kat", "--link", "10mbit");
    assertEquals(2, link.exitCode(), link.toString());
    assertTrue(link.err().contains("--link, --dir and --node-memory need --cluster netns"),
        link.err());
    CliRun memory = CliRun.inProcess("bench", "kat", "--node-memory", "3g");
    assertEquals(2, memory.exitCode(), memory.toString());
    assertTrue(memory.err().contains("--node-memory need --cluster netns"), memory.err());
    CliRun block = CliRun.inProcess("bench", "kat", "--block", "0");
    assertEquals(2, block.exitCode(), block.toString());
    assertTrue(block.err().contains("--block must be 1..1024, got 0"), block.err());
  }

  @Test
  void benchChecksumRefusesAChunkHdfsCannotUseAndAnEmptyFileBeforeStartingAnything() {
    CliRun chunk = CliRun.inProcess("bench", "checksum", "--bytes-per-checksum", "512,1000",
        "--out", new File(tmp, "checksum").getPath());
    assertEquals(2, chunk.exitCode(), chunk.toString());
    assertTrue(chunk.err().contains("--bytes-per-checksum 1000 is not a power of two"),
        chunk.err());
    CliRun empty = CliRun.inProcess("bench", "checksum", "--mib", "0");
    assertEquals(2, empty.exitCode(), empty.toString());
    assertTrue(empty.err().contains("--mib must be 1..1024, got 0"), empty.err());
    assertTrue(empty.err().contains("Try 'locus bench checksum --help'"), empty.err());
    assertFalse(new File(tmp, "checksum").exists(), "nothing written before the refusal");
  }

  @Test
  void benchSwimRefusesAMissingTraceAZeroCompressionAndABadSizeByName() {
    CliRun missing = CliRun.inProcess("bench", "swim", "--trace", "no-such-trace.tsv", "--out",
        "target/swim-refused", "--cluster", "local");
    assertEquals(1, missing.exitCode(), missing.toString());
    assertTrue(missing.err().contains("trace no-such-trace.tsv is neither a file nor one of"
        + " the bundled samples (fb2009, fb2010)"), missing.err());
    CliRun compress = CliRun.inProcess("bench", "swim", "--trace", "fb2009", "--out",
        "target/swim-refused", "--compress", "0");
    assertEquals(2, compress.exitCode(), compress.toString());
    assertTrue(compress.err().contains("--compress must be a number > 0, got '0'"),
        compress.err());
    CliRun min = CliRun.inProcess("bench", "swim", "--trace", "fb2009", "--out",
        "target/swim-refused", "--min", "lots");
    assertEquals(2, min.exitCode(), min.toString());
    assertTrue(min.err().contains("--min needs a whole number of bytes"), min.err());
    CliRun early = CliRun.inProcess("bench", "swim", "--trace", "fb2009", "--out",
        "target/swim-refused", "--hours", "0.001");
    assertEquals(2, early.exitCode(), early.toString());
    assertTrue(early.err().contains("trace fb2009 has no job in its first 0.001 h"),
        early.err());
    assertFalse(new java.io.File("target/swim-refused/replay.json").exists());
  }

  @Test
  void benchRunRefusesAnUnknownJobAJobWithoutItsInputAndConfWithCluster() {
    CliRun unknown = CliRun.inProcess("bench", "run", "--suite", "puma-tiny", "--out",
        "target/bench-refused", "--jobs", "wordcount,nosuchjob");
    assertEquals(2, unknown.exitCode(), unknown.toString());
    assertTrue(unknown.err().contains("suite puma-tiny has no job 'nosuchjob'"), unknown.err());
    CliRun orphan = CliRun.inProcess("bench", "run", "--suite", "puma-tiny", "--out",
        "target/bench-refused", "--jobs", "terasort");
    assertEquals(2, orphan.exitCode(), orphan.toString());
    assertTrue(orphan.err().contains("terasort reads teragen's output: select teragen too"),
        orphan.err());
    CliRun both = CliRun.inProcess("bench", "run", "--suite", "puma-tiny", "--out",
        "target/bench-refused", "--conf", "target/no-cluster", "--cluster", "local");
    assertEquals(2, both.exitCode(), both.toString());
    assertTrue(both.err().contains("--conf runs on a running cluster; --cluster starts one"),
        both.err());
    assertFalse(new java.io.File("target/bench-refused/results.json").exists());
  }

  @Test
  void zeroNodesIsRefused() {
    CliRun run = CliRun.inProcess("cluster", "up", "--dir", tmp.getPath(), "--nodes", "0");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--nodes must be 1..250, got 0"), run.err());
    assertEquals(0, tmp.list().length, "nothing written");
  }

  @Test
  void unknownVolumeTypeIsRefusedNamingTheValidOnes() {
    CliRun run = CliRun.inProcess("cluster", "up", "--dir", tmp.getPath(),
        "--volumes", "DISK,TAPE");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("unknown volume type 'TAPE'; choose from DISK, SSD, ARCHIVE,"
        + " NVDIMM"), run.err());
  }

  @Test
  void unknownFeatureIsRefusedNamingTheKnownOnes() throws IOException {
    File features = new File(tmp, "home/conf/features");
    features.mkdirs();
    Files.writeString(new File(features, "probe.xml").toPath(), "<configuration/>");
    String previous = System.setProperty("locus.home", new File(tmp, "home").getPath());
    try {
      CliRun run = CliRun.inProcess("cluster", "up", "--dir", new File(tmp, "c").getPath(),
          "--feature", "warp-drive");
      assertEquals(2, run.exitCode());
      assertTrue(run.err().contains("unknown feature 'warp-drive'; known features: probe"),
          run.err());
    } finally {
      if (previous == null) {
        System.clearProperty("locus.home");
      } else {
        System.setProperty("locus.home", previous);
      }
    }
  }

  /** Two features that each set the placement policy to a class of their own. */
  @Test
  void featuresThatCannotRunTogetherAreRefusedBeforeAnythingStarts() throws IOException {
    File features = new File(tmp, "home/conf/features");
    features.mkdirs();
    for (String name : List.of("one", "two")) {
      Files.writeString(new File(features, name + ".xml").toPath(), "<configuration><property>"
          + "<name>dfs.block.replicator.classname</name><value>org.example." + name
          + "</value></property></configuration>");
    }
    String previous = System.setProperty("locus.home", new File(tmp, "home").getPath());
    File dir = new File(tmp, "conflict");
    try {
      CliRun run = CliRun.inProcess("cluster", "up", "--dir", dir.getPath(), "--feature", "one",
          "--feature", "two");
      assertEquals(2, run.exitCode(), run.toString());
      assertTrue(run.err().contains("features 'one' and 'two' cannot run together: both set"
          + " dfs.block.replicator.classname"), run.err());
      assertTrue(!dir.exists(), "nothing created in " + dir);
    } finally {
      if (previous == null) {
        System.clearProperty("locus.home");
      } else {
        System.setProperty("locus.home", previous);
      }
    }
  }

  @Test
  void unwritableClusterDirectoryIsRefused() throws IOException {
    File aFile = new File(tmp, "plain-file");
    Files.writeString(aFile.toPath(), "x");
    CliRun run = CliRun.inProcess("cluster", "up", "--dir", new File(aFile, "sub").getPath());
    assertEquals(1, run.exitCode());
    assertTrue(run.err().contains("cannot create cluster directory"), run.err());
    assertTrue(run.err().contains("choose a --dir you can write to"), run.err());
  }

  @Test
  void fsWithoutAnyConfigurationSaysWhatToPass() {
    CliRun run = CliRun.inProcess("fs", "--conf", new File(tmp, "nothing-here").getPath(),
        "-ls", "/");
    assertEquals(1, run.exitCode());
    assertTrue(run.err().contains("holds no core-site.xml"), run.err());
  }

  @Test
  void fsAgainstAClusterThatIsNotRunningSaysSoQuickly() throws IOException {
    File conf = new File(tmp, "conf");
    conf.mkdirs();
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Files.writeString(new File(conf, "core-site.xml").toPath(),
        "<configuration><property><name>fs.defaultFS</name><value>hdfs://127.0.0.1:"
            + closedPort + "</value></property></configuration>");
    long start = System.nanoTime();
    CliRun run = CliRun.inProcess("fs", "--conf", conf.getPath(), "-ls", "/");
    assertEquals(1, run.exitCode());
    assertTrue(run.err().contains("no NameNode answers at 127.0.0.1:" + closedPort), run.err());
    assertTrue(run.err().contains("is the cluster running?"), run.err());
    assertTrue((System.nanoTime() - start) / 1e9 < 10, "fails fast instead of retrying");
  }

  @Test
  void statusOfADirectoryWithNoClusterIsDown() {
    CliRun run = CliRun.inProcess("cluster", "status", "--dir", tmp.getPath());
    assertEquals(3, run.exitCode());
    assertEquals("cluster in " + tmp.getAbsolutePath() + ": down", run.out().trim());
  }

  @Test
  void benchZoneJobsRefusesMissingOptionsAnUnknownStrategyAndATinyDiskByName() {
    String[] base = {"bench", "zone-jobs", "--dir", tmp.getPath(), "--device", "/dev/loop9",
        "--state-dir", tmp.getPath(), "--out", new File(tmp, "jobs.tsv").getPath()};
    CliRun missing = CliRun.inProcess(base);
    assertEquals(2, missing.exitCode(), missing.toString());
    assertTrue(missing.err().contains("--strategy is required"), missing.err());
    CliRun strategy = CliRun.inProcess(with(base, "--strategy", "dynamic", "--disk-bytes",
        "536870912"));
    assertEquals(2, strategy.exitCode(), strategy.toString());
    assertTrue(strategy.err().contains("unknown strategy 'dynamic'"), strategy.err());
    CliRun tiny = CliRun.inProcess(with(base, "--strategy", "normal", "--disk-bytes", "1m"));
    assertEquals(2, tiny.exitCode(), tiny.toString());
    assertTrue(tiny.err().contains("--disk-bytes needs a whole number of bytes, got '1m'"),
        tiny.err());
    CliRun zonectl = CliRun.inProcess(with(base, "--strategy", "normal", "--disk-bytes",
        "536870912", "--zonectl", new File(tmp, "no-zonectl").getPath()));
    assertEquals(2, zonectl.exitCode(), zonectl.toString());
    assertTrue(zonectl.err().contains("is not an executable file"), zonectl.err());
    CliRun share = CliRun.inProcess(with(base, "--strategy", "normal", "--disk-bytes",
        "536870912", "--output-share", "0.9"));
    assertEquals(2, share.exitCode(), share.toString());
    assertTrue(share.err().contains("--output-share: the reduce-heavy outputs' share of the"
        + " disk must be above 0 and at most 0.6"), share.err());
    CliRun word = CliRun.inProcess(with(base, "--strategy", "normal", "--disk-bytes",
        "536870912", "--output-share", "half"));
    assertEquals(2, word.exitCode(), word.toString());
    assertTrue(word.err().contains("--output-share needs a number such as 0.45, got 'half'"),
        word.err());
    assertFalse(new File(tmp, "jobs.tsv").exists(), "nothing ran");
  }

  private static String[] with(String[] base, String... more) {
    String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  @Test
  void missingRequiredOptionsAreNamed() {
    for (List<String> args : List.of(List.of("cluster", "up"), List.of("cluster", "status"),
        List.of("cluster", "down"))) {
      CliRun run = CliRun.inProcess(args.toArray(new String[0]));
      assertEquals(2, run.exitCode(), args.toString());
      assertTrue(run.err().contains("--dir DIR is required"), run.err());
    }
  }

  @Test
  void grepRefusesAnInvalidRegexBeforeContactingTheCluster() {
    CliRun run = CliRun.inProcess("job", "grep", "--input", "/in", "--output", "/out",
        "--regex", "a(b");
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains("invalid regular expression 'a(b'"), run.err());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "sentiment|unknown key extractor 'sentiment'",
      "grep:w(1|invalid regular expression 'w(1'",
      "class:com.example.NoSuchHint|com.example.NoSuchHint is not on the classpath",
      "class:java.lang.String|does not implement org.locus.kat.hint.KeyHint",
      "field:x,;|field extractor needs field:N,DELIM"})
  void katImportRefusesABadExtractorBeforeContactingTheCluster(String caseText) {
    String[] parts = caseText.split("\\|");
    CliRun run = CliRun.inProcess("kat", "import", "--extractor", parts[0], "--input", "/in",
        "--output", "/out");
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains(parts[1]), run.err());
  }

  @Test
  void katImportRefusesAnUnknownQueueDesign() {
    CliRun run = CliRun.inProcess("kat", "import", "--extractor", "wordcount", "--input", "/in",
        "--output", "/out", "--queues", "sideways");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--queues must be central or distributed, got 'sideways'"),
        run.err());
  }

  @Test
  void katImportWithoutAClusterSaysSo() {
    CliRun run = CliRun.inProcess("kat", "import", "--extractor", "wordcount", "--input", "/in",
        "--output", "/out", "--conf", new File(tmp, "nothing").getPath());
    assertEquals(1, run.exitCode());
    assertTrue(run.err().contains("holds no core-site.xml"), run.err());
  }

  @Test
  void energyBenchRefusesABlockSizeHdfsCannotUseBeforeStartingAnything() {
    CliRun run = CliRun.inProcess("bench", "energy", "--block-kib", "100", "--out",
        tmp.getPath());
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--block-kib must be a multiple of 64"), run.err());
    assertEquals(0, tmp.list().length, "no cluster started, nothing written");
  }

  @Test
  void energyBenchRefusesAReplayBeyondTheBundledTraceHourOrWithoutJobs() {
    CliRun hours = CliRun.inProcess("bench", "energy", "--swim-hours", "2", "--out",
        tmp.getPath());
    assertEquals(2, hours.exitCode());
    assertTrue(hours.err().contains("--swim-hours must be a number from 0.0 to 1.0, got '2'"),
        hours.err());
    CliRun pace = CliRun.inProcess("bench", "energy", "--swim-compress", "0", "--out",
        tmp.getPath());
    assertEquals(2, pace.exitCode());
    assertTrue(pace.err().contains("--swim-compress must be a number from above 0"),
        pace.err());
    assertEquals(0, tmp.list().length, "no cluster started, nothing written");
    // FB-2009 submits its first job 49 s into the trace: 0.001 h (3.6 s) holds none
    CliRun none = CliRun.inProcess("bench", "energy", "--swim-hours", "0.001", "--out",
        new File(tmp, "none").getPath());
    assertEquals(1, none.exitCode(), none.toString());
    assertTrue(none.err().contains("the fb2009 trace submits no job in its first 0.001 h"),
        none.err());
  }

  @Test
  void energyBenchRefusesAnUnknownSetUpNamingTheKnownOnes() {
    CliRun run = CliRun.inProcess("bench", "energy", "--setups", "native,turbo", "--out",
        tmp.getPath());
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("unknown set-up 'turbo'; choose from native, energy,"
        + " prediction"), run.err());
    assertEquals(0, tmp.list().length, "no cluster started, nothing written");
  }

  @Test
  void spinDownBenchWritesItsReportWithEveryPolicyOnEveryTrace() throws IOException {
    CliRun run = CliRun.inProcess("bench", "spindown", "--hours", "2", "--out", tmp.getPath());
    assertEquals(0, run.exitCode(), run.toString());
    String report = Files.readString(new File(tmp, "report.md").toPath());
    for (String policy : List.of("fixed 10 s", "fixed 60 s (default)", "history")) {
      assertEquals(3, report.lines().filter(l -> l.startsWith("| ") && l.contains(policy))
          .count(), policy + " on each of the 3 traces in\n" + report);
    }
    assertTrue(Files.readString(new File(tmp, "energy.svg").toPath()).startsWith("<svg"));
  }
}
