package org.locus.ndcoupling.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.slf4j.LoggerFactory;

/**
 * {@code locus://} over a federated mini cluster of three partitions (ns1..ns3), the default
 * mount table: / and /user on ns1, /tmp on ns2, /data on ns3, /apps on ns1.
 */
class LocusFileSystemTest {
  private static final List<String> PARTITIONS = List.of("ns1", "ns2", "ns3");
  private static MiniDFSCluster cluster;
  private static Configuration conf;

  @BeforeAll
  static void threePartitions() throws IOException {
    Configuration base = new Configuration();
    base.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File("target/locus-fs-test")
        .getAbsolutePath());
    cluster = new MiniDFSCluster.Builder(base)
        .nnTopology(MiniDFSNNTopology.simpleFederatedTopology(3)).numDataNodes(1).build();
    cluster.waitActive();
    conf = new Configuration(cluster.getConfiguration(0));
    for (String ns : PARTITIONS) {
      conf.set("dfs.client.failover.proxy.provider." + ns,
          "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    }
    conf.set("fs.defaultFS", "locus://ns1/");
    conf.setBoolean("fs.locus.impl.disable.cache", true);
    conf.set("fs.AbstractFileSystem.locus.impl", LocusFs.class.getName());
    try (MountTableAdmin admin = new MountTableAdmin(conf)) {
      assertEquals(1, admin.initialize().version());
    }
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static FileSystem locus(String entry) throws IOException {
    return FileSystem.newInstance(URI.create("locus://" + entry + "/"), conf);
  }

  /** A client of {@code locus://ENTRY/} that checks the table's version at every call. */
  private static LocusFileSystem checkingAtEveryCall(String entry) throws IOException {
    Configuration everyCall = new Configuration(conf);
    everyCall.set(NdCouplingConfigKeys.MOUNT_REFRESH_INTERVAL, "0s");
    return (LocusFileSystem) FileSystem.newInstance(URI.create("locus://" + entry + "/"),
        everyCall);
  }

  /** Calls {@code fs} until the checks those calls start have brought in {@code version}. */
  private static void awaitVersion(LocusFileSystem fs, int version) throws Exception {
    GenericTestUtils.waitFor(() -> fs.mountTable().version() == version, 10, 60_000);
  }

  private static FileSystem partition(String ns) throws IOException {
    return FileSystem.newInstance(URI.create("hdfs://" + ns + "/"), conf);
  }

  @Test
  void aClientEnteringAtAnyNodeReachesEveryPathOnItsOwningPartition() throws IOException {
    byte[] data = "every path from every node".getBytes(StandardCharsets.UTF_8);
    try (FileSystem fs = locus("ns2")) {
      for (String path : List.of("/data/any/f", "/tmp/any/f", "/user/any/f", "/other/any/f")) {
        try (OutputStream out = fs.create(new Path(path))) {
          out.write(data);
        }
      }
    }
    InetSocketAddress ns3 = cluster.getNameNode(2).getNameNodeAddress();
    for (String entry : List.of("ns1", "ns2", "ns3", ns3.getHostString() + ":"
        + ns3.getPort())) {
      try (FileSystem fs = locus(entry)) {
        for (String path : List.of("/data/any/f", "/tmp/any/f", "/user/any/f", "/other/any/f")) {
          try (InputStream in = fs.open(new Path(path))) {
            assertArrayEquals(data, in.readAllBytes(), entry + " " + path);
          }
        }
        assertEquals("ns3", ((LocusFileSystem) fs).partitionOf(new Path("/data/any/f")));
      }
    }
    Map<String, String> owner = Map.of("/data/any/f", "ns3", "/tmp/any/f", "ns2",
        "/user/any/f", "ns1", "/other/any/f", "ns1");
    for (Map.Entry<String, String> file : owner.entrySet()) {
      for (String ns : PARTITIONS) {
        try (FileSystem fs = partition(ns)) {
          assertEquals(ns.equals(file.getValue()), fs.exists(new Path(file.getKey())),
              file.getKey() + " lives on " + file.getValue() + " only, asked " + ns);
        }
      }
    }
  }

  @Test
  void theShellListsEveryPartitionRecursivelyFromTheRoot() throws Exception {
    try (FileSystem fs = locus("ns1")) {
      fs.create(new Path("/data/ls/one")).close();
      fs.create(new Path("/tmp/ls/two")).close();
      fs.create(new Path("/ls-root/three")).close();
    }
    String out = shell("-ls", "-R", "/");
    for (String path : List.of("locus://ns1/data/ls/one", "locus://ns1/tmp/ls/two",
        "locus://ns1/ls-root/three")) {
      assertTrue(out.contains(path.substring("locus://ns1".length())) || out.contains(path),
          path + " in\n" + out);
    }
  }

  @Test
  void aRenameAcrossPartitionsIsRefusedNamingBothAndChangesNothing() throws IOException {
    try (FileSystem fs = locus("ns3")) {
      Path src = new Path("/data/mv/f");
      fs.create(src).close();
      CrossPartitionRenameException e = assertThrows(CrossPartitionRenameException.class,
          () -> fs.rename(src, new Path("/tmp/mv-f")));
      assertTrue(e.getMessage().contains("/data/mv/f is on partition ns3 (mount point /data)"),
          e.getMessage());
      assertTrue(e.getMessage().contains("/tmp/mv-f on partition ns2 (mount point /tmp)"),
          e.getMessage());
      assertTrue(fs.exists(src));
      assertFalse(fs.exists(new Path("/tmp/mv-f")));
      fs.mkdirs(new Path("/data/mv-dir"));
      assertThrows(CrossPartitionRenameException.class,
          () -> fs.rename(new Path("/data/mv-dir"), new Path("/")),
          "a move into / that would land on another partition");
      Path sameHere = new Path("/user/mv-g");
      fs.create(sameHere).close();
      assertTrue(fs.rename(sameHere, new Path("/apps-less/../mv-g")),
          "/user and / are both on ns1: an ordinary rename");
      assertTrue(fs.exists(new Path("/mv-g")));
    }
    String err = shellError("-mv", "/data/mv/f", "/tmp/mv-f");
    assertTrue(err.contains("crosses partitions") && err.contains("ns3")
        && err.contains("ns2"), err);
  }

  @Test
  void aChangedTableReachesEveryNewClientWhicheverNodeItEnters() throws IOException {
    try (MountTableAdmin admin = new MountTableAdmin(conf)) {
      MountTable next = admin.add("/audit", "ns2", false);
      assertEquals(Map.of("ns1", java.util.Optional.of(next.version()), "ns2",
          java.util.Optional.of(next.version()), "ns3", java.util.Optional.of(next.version())),
          admin.storedVersions(), "every partition stores the new version");
      for (String entry : PARTITIONS) {
        try (FileSystem after = locus(entry)) {
          assertEquals("ns2", ((LocusFileSystem) after).partitionOf(new Path("/audit/x")),
              "entering at " + entry);
          after.create(new Path("/audit/x-" + entry)).close();
        }
      }
      try (FileSystem ns2 = partition("ns2")) {
        assertTrue(ns2.exists(new Path("/audit/x-ns3")));
      }
      IllegalArgumentException hiding = assertThrows(IllegalArgumentException.class,
          () -> admin.remove("/audit", false));
      assertTrue(hiding.getMessage().contains("/audit holds files on partition ns2"),
          hiding.getMessage());
      assertEquals(next.version(), admin.current().version(), "a refused change stores nothing");
    }
  }

  @Test
  void aRunningClientWritesIntoAMountAddedByAnotherClientAndBackAfterItsRemoval()
      throws Exception {
    try (LocusFileSystem fs = checkingAtEveryCall("ns1");
        MountTableAdmin admin = new MountTableAdmin(conf);
        FileSystem ns1 = partition("ns1"); FileSystem ns2 = partition("ns2")) {
      assertEquals("ns1", fs.partitionOf(new Path("/logs/x")), "/logs is /'s before the change");
      MountTable added = admin.add("/logs", "ns2", false);
      awaitVersion(fs, added.version());
      assertEquals(admin.current(), fs.mountTable(), "the stored table, whole");
      fs.create(new Path("/logs/x")).close();
      assertTrue(ns2.exists(new Path("/logs/x")), "written onto ns2 by the instance opened before");
      assertFalse(ns1.exists(new Path("/logs/x")));

      assertTrue(fs.delete(new Path("/logs/x"), false));
      MountTable removed = admin.remove("/logs", false);
      awaitVersion(fs, removed.version());
      fs.create(new Path("/logs/y")).close();
      assertTrue(ns1.exists(new Path("/logs/y")), "/logs is the fallback's (ns1) again");
      assertFalse(ns2.exists(new Path("/logs/y")));
    }
  }

  @Test
  void aStreamAndTheWorkingDirectoryOutliveTheSwapToANewTable() throws Exception {
    byte[] first = "opened under one table, ".getBytes(StandardCharsets.UTF_8);
    byte[] second = "closed under the next".getBytes(StandardCharsets.UTF_8);
    try (LocusFileSystem fs = checkingAtEveryCall("ns2");
        MountTableAdmin admin = new MountTableAdmin(conf); FileSystem ns3 = partition("ns3")) {
      fs.mkdirs(new Path("/data/swap"));
      fs.setWorkingDirectory(new Path("/data/swap"));
      try (OutputStream out = fs.create(new Path("kept"))) {
        out.write(first);
        awaitVersion(fs, admin.add("/reports", "ns3", false).version());
        out.write(second);
      }
      assertEquals("/data/swap", fs.getWorkingDirectory().toUri().getPath(),
          "the new view has the old one's working directory, not the home directory");
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      expected.write(first);
      expected.write(second);
      try (InputStream in = fs.open(new Path("kept"))) {
        assertArrayEquals(expected.toByteArray(), in.readAllBytes());
      }
      assertTrue(ns3.exists(new Path("/data/swap/kept")));
    }
  }

  @Test
  void aCheckThatFindsTheSameVersionKeepsTheTableItHas() throws IOException {
    try (LocusFileSystem fs = checkingAtEveryCall("ns3")) {
      MountTable table = fs.mountTable();
      assertSame(table, fs.refreshMountTable(), "the version alone was read, nothing rebuilt");
      assertTrue(fs.exists(new Path("/")));
      assertSame(table, fs.refreshMountTable());
    }
  }

  @Test
  void anEntryNodeThatCannotAnswerLeavesTheTableInForceAndOneWarning() throws Exception {
    InetSocketAddress ns3 = cluster.getNameNode(2).getNameNodeAddress();
    String entry = ns3.getHostString() + ":" + ns3.getPort();
    Configuration quick = new Configuration(conf);
    quick.set(NdCouplingConfigKeys.MOUNT_REFRESH_INTERVAL, "0s");
    quick.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    LogCapturer logs = LogCapturer.captureLogs(LoggerFactory.getLogger(LocusFileSystem.class));
    try (LocusFileSystem fs = (LocusFileSystem) FileSystem.newInstance(
        URI.create("locus://" + entry + "/"), quick)) {
      MountTable table = fs.mountTable();
      cluster.shutdownNameNode(2);
      try {
        assertSame(table, fs.refreshMountTable());
        fs.create(new Path("/tmp/entry-down/f")).close();
        assertTrue(fs.exists(new Path("/tmp/entry-down/f")), "ns2 serves on");
        assertSame(table, fs.refreshMountTable());
        String warning = "cannot check the mount table with entry node hdfs://" + entry;
        assertEquals(1, logs.getOutput().split(Pattern.quote(warning), -1).length - 1,
            logs.getOutput());
      } finally {
        cluster.restartNameNode(2);
        GenericTestUtils.waitFor(() -> !cluster.getNamesystem(2).isInSafeMode(), 100, 60_000);
      }
      assertSame(table, fs.refreshMountTable());
      assertTrue(logs.getOutput().contains("entry node hdfs://" + entry + " answers again"),
          logs.getOutput());
    } finally {
      logs.stopCapturing();
    }
  }

  @Test
  void aNegativeRefreshIntervalIsRefusedNamingTheKey() {
    Configuration negative = new Configuration(conf);
    negative.set(NdCouplingConfigKeys.MOUNT_REFRESH_INTERVAL, "-1s");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FileSystem.newInstance(URI.create("locus://ns1/"), negative));
    assertTrue(e.getMessage().contains(NdCouplingConfigKeys.MOUNT_REFRESH_INTERVAL),
        e.getMessage());
  }

  @Test
  void aTableNamingAnUnknownPartitionIsRefusedByTheClient() throws IOException {
    Configuration other = new Configuration(conf);
    other.set("locus.ndcoupling.mount.dir", "/.locus/bad-mounts");
    try (FileSystem ns1 = partition("ns1")) {
      StoredMountTableResolver.store(other).publish(MountTable.parse(
          "version 1\n/ ns1\n/x ns9\n", "test"), Map.of("ns1", ns1));
    }
    IOException e = assertThrows(IOException.class,
        () -> FileSystem.newInstance(URI.create("locus://ns1/"), other));
    assertTrue(e.getMessage().contains("names partition ns9, which is not in dfs.nameservices"
        + " (ns1,ns2,ns3)"), e.getMessage());
  }

  @Test
  void fileContextUsersReachThePartitionsToo() throws IOException {
    org.apache.hadoop.fs.FileContext context = org.apache.hadoop.fs.FileContext.getFileContext(
        URI.create("locus://ns2/"), conf);
    context.mkdir(new Path("/tmp/fc/history"), null, true);
    try (FileSystem ns2 = partition("ns2")) {
      assertTrue(ns2.getFileStatus(new Path("/tmp/fc/history")).isDirectory(),
          "/tmp is on ns2");
    }
  }

  @Test
  void fsckOfTheRootChecksEveryPartitionAndOfAMountPointItsOwner() throws Exception {
    try (FileSystem fs = locus("ns1")) {
      fs.create(new Path("/data/fsck/f")).close();
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    assertEquals(0, ToolRunner.run(new PartitionedFsck(conf, out), new String[] {"/"}));
    String all = bytes.toString(StandardCharsets.UTF_8);
    for (String ns : PARTITIONS) {
      assertTrue(all.contains("partition " + ns + ": hdfs://" + ns + "/"), all);
    }
    assertEquals(3, all.split("is HEALTHY", -1).length - 1, all);
    bytes.reset();
    assertEquals(0, ToolRunner.run(new PartitionedFsck(conf, out), new String[] {"/data"}));
    String data = bytes.toString(StandardCharsets.UTF_8);
    assertFalse(data.contains("partition "), "one NameNode answers for a mount point: " + data);
    assertEquals(1, data.split("is HEALTHY", -1).length - 1, data);
  }

  @Test
  void deeperMountPointsSpreadOneDirectoryOverThePartitionsForAJob() throws IOException {
    try (MountTableAdmin admin = new MountTableAdmin(conf)) {
      for (String ns : PARTITIONS) {
        admin.add("/job/in/" + ns, ns, false);
      }
    }
    try (FileSystem fs = locus("ns2")) {
      for (String ns : PARTITIONS) {
        fs.create(new Path("/job/in/" + ns + "/part")).close();
      }
      java.util.Set<String> listed = new java.util.TreeSet<>();
      org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
          fs.listFiles(new Path("/job/in"), true);
      while (files.hasNext()) {
        listed.add(files.next().getPath().toUri().getPath());
      }
      assertEquals(java.util.Set.of("/job/in/ns1/part", "/job/in/ns2/part",
          "/job/in/ns3/part"), listed, "a recursive listing descends into every mount point");
      // what a job's output committer does beside them: a directory through the fallback,
      // task output renamed inside it
      fs.mkdirs(new Path("/job/out/_temporary/0"));
      fs.create(new Path("/job/out/_temporary/0/part-r-00000")).close();
      assertTrue(fs.rename(new Path("/job/out/_temporary/0/part-r-00000"),
          new Path("/job/out/part-r-00000")));
      try (FileSystem ns1 = partition("ns1"); FileSystem ns3 = partition("ns3")) {
        assertTrue(ns1.exists(new Path("/job/out/part-r-00000")), "/job/out is /'s: ns1");
        assertTrue(ns3.exists(new Path("/job/in/ns3/part")), "on its own partition");
      }
    }
  }

  private static String shell(String... args) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream old = System.out;
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      assertEquals(0, ToolRunner.run(new FsShell(conf), args), String.join(" ", args));
    } finally {
      System.setOut(old);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static String shellError(String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream old = System.err;
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      assertEquals(1, ToolRunner.run(new FsShell(conf), args), String.join(" ", args));
    } catch (Exception e) {
      throw new AssertionError(e);
    } finally {
      System.setErr(old);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
