package org.locus.boost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.util.Shell;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A stock DataNode that is not root, on a MorphStore volume (issue 45): the DataNode runs as
 * {@code nobody} in a process of its own (Hadoop's jars, no Locus code), its only data
 * directory a directory {@code nobody} owns on a {@code morphstore-fuse} mount ({@code copies=2}
 * over two ext4 loop devices) mounted by root, as an operator mounts it. It starts, registers
 * with a NameNode, writes, finalizes and serves blocks; then its block directory is hard-linked
 * into a new tree by the DataNode's user, as a rolling upgrade links {@code current} into
 * {@code previous}, and every block and checksum file has one inode under both names. Needs
 * root (loop devices, the mount, the switch to {@code nobody}).
 */
class UnprivilegedDataNodeOnMorphStoreTest {
  private static final String USER = "nobody";
  private static final String GROUP = "nogroup";
  private static final File WORK =
      new File("target/test-clusters/unprivileged-datanode").getAbsoluteFile();
  private static final int BLOCK = 256 * 1024;

  private static MiniDFSCluster nameNode;
  private static MorphStoreVolume volume;
  private static Process dataNode;
  private static File dataDir;
  private static File dataNodeLog;

  @BeforeAll
  static void startANameNodeAndAnUnprivilegedDataNodeOnTheVolume() throws Exception {
    FileUtil.fullyDelete(WORK);
    File mountPoint = new File(WORK, "mnt");
    File devices = new File(WORK, "devices");
    assertTrue(mountPoint.mkdirs() && devices.mkdirs(), WORK.toString());
    Configuration conf = new HdfsConfiguration();
    conf.set("dfs.blocksize", Integer.toString(BLOCK));
    conf.set("dfs.replication", "1");
    conf.set("dfs.namenode.fs-limits.min-block-size", Integer.toString(BLOCK));
    conf.set("dfs.heartbeat.interval", "1");
    conf.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
    conf.set("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(WORK, "namenode").getPath());
    nameNode = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    nameNode.waitActive();

    volume = MorphStoreVolume.mount(devices, mountPoint, 96);
    dataDir = new File(mountPoint, "dn");
    assertTrue(dataDir.mkdir(), dataDir.toString());
    Shell.execCommand("chown", USER + ":" + GROUP, dataDir.getPath());
    dataNode = startDataNode();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (nameNode.getNamesystem().getNumLiveDataNodes() < 1) {
      assertTrue(dataNode.isAlive(), "the DataNode exited: " + log());
      assertTrue(System.nanoTime() < deadline, "the DataNode never registered: " + log());
      Thread.sleep(200);
    }
  }

  @AfterAll
  static void stopAll() throws Exception {
    if (dataNode != null) {
      dataNode.destroy();
      if (!dataNode.waitFor(30, TimeUnit.SECONDS)) {
        dataNode.destroyForcibly().waitFor();
      }
    }
    if (nameNode != null) {
      nameNode.shutdown();
    }
    if (volume != null) {
      volume.close();
    }
  }

  @Test
  void itWritesFinalizesAndServesBlocksAndAHardLinkedBlockTreeKeepsOneInodePerFile()
      throws Exception {
    DistributedFileSystem fs = nameNode.getFileSystem();
    Map<org.apache.hadoop.fs.Path, byte[]> files = new TreeMap<>();
    Random random = new Random(45);
    for (int i = 0; i < 6; i++) {
      byte[] data = new byte[BLOCK * (1 + i % 2) + 1000 * i];
      random.nextBytes(data);
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/unprivileged/f" + i);
      try (FSDataOutputStream out = fs.create(file, true, 4096, (short) 1, BLOCK)) {
        out.write(data);
      }
      DFSTestUtil.waitReplication(fs, file, (short) 1);
      files.put(file, data);
    }
    for (Map.Entry<org.apache.hadoop.fs.Path, byte[]> e : files.entrySet()) {
      byte[] read = new byte[e.getValue().length];
      try (FSDataInputStream in = fs.open(e.getKey())) {
        in.readFully(0, read);
      }
      assertArrayEquals(e.getValue(), read, e.getKey().toString());
    }

    // every block finalized on the volume, owned by the DataNode's user
    List<Path> blockFiles = blockFiles(dataDir.toPath());
    long blocks = blockFiles.stream().filter(p -> !p.toString().endsWith(".meta")).count();
    long expected = files.values().stream().mapToLong(d -> (d.length + BLOCK - 1) / BLOCK)
        .sum();
    assertEquals(expected, blocks, "every block of the 6 files, finalized: " + blockFiles);
    assertEquals(2 * blocks, blockFiles.size(), "a checksum file per block: " + blockFiles);
    for (Path p : blockFiles) {
      assertTrue(p.toString().contains("/current/finalized/"), p.toString());
      assertEquals(USER, Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName(), p.toString());
    }

    // the DataNode's user links its block tree as a rolling upgrade does: one inode per file
    Path finalized = blockFiles.get(0);
    while (!finalized.getFileName().toString().equals("finalized")) {
      finalized = finalized.getParent();
    }
    Path linked = dataDir.toPath().resolve("previous-finalized");
    asUser("cp", "-al", finalized.toString(), linked.toString());
    for (Path p : blockFiles) {
      Path twin = linked.resolve(finalized.relativize(p));
      Object ino = Files.readAttributes(p, "unix:ino").get("ino");
      assertEquals(ino, Files.readAttributes(twin, "unix:ino").get("ino"),
          p + " and its link " + twin + " are one file");
      assertEquals(2, Files.getAttribute(p, "unix:nlink"), p + " has two names");
      assertEquals(USER, Files.readAttributes(twin, PosixFileAttributes.class).owner()
          .getName(), twin.toString());
    }
    // the original names can go, as a finalized upgrade removes them: the data stays
    asUser("rm", "-r", linked.toString());
    for (Path p : blockFiles) {
      assertEquals(1, Files.getAttribute(p, "unix:nlink"), p.toString());
    }
    for (Map.Entry<org.apache.hadoop.fs.Path, byte[]> e : files.entrySet()) {
      byte[] read = new byte[e.getValue().length];
      try (FSDataInputStream in = fs.open(e.getKey())) {
        in.readFully(0, read);
      }
      assertArrayEquals(e.getValue(), read, e.getKey() + " after the link and unlink");
    }
    assertTrue(dataNode.isAlive(), log());
    assertFalse(log().contains("Permission denied"), log());
  }

  /** Starts a stock DataNode as {@link #USER}: its own JVM, conf and jars it can read. */
  private static Process startDataNode() throws IOException {
    File home = new File(WORK, "datanode");
    File confDir = new File(home, "conf");
    File lib = new File(home, "lib");
    assertTrue(confDir.mkdirs() && lib.mkdirs(), home.toString());
    // the test's jars live under /root, which nobody may enter: link them where it may
    List<String> classpath = new ArrayList<>(List.of(confDir.getPath()));
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      File jar = new File(entry);
      if (jar.isFile() && jar.getName().endsWith(".jar")) {
        File copy = new File(lib, jar.getName());
        if (!copy.exists()) {
          try {
            Files.createLink(copy.toPath(), jar.toPath());
          } catch (IOException | UnsupportedOperationException e) {
            Files.copy(jar.toPath(), copy.toPath());
          }
        }
      }
    }
    classpath.add(lib.getPath() + "/*");
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", nameNode.getURI().toString());
    conf.set("hadoop.tmp.dir", new File(home, "tmp").getPath());
    conf.set("dfs.datanode.data.dir", "[DISK]" + dataDir.toURI());
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.set("dfs.datanode.hostname", "127.0.0.1");
    // a 96 MB test volume: Hadoop 3.5 otherwise wants 1 GB free beyond the block
    conf.set("dfs.datanode.round-robin-volume-choosing-policy.additional-available-space", "0");
    conf.set("dfs.heartbeat.interval", "1");
    conf.set("dfs.blocksize", Integer.toString(BLOCK));
    try (var out = Files.newOutputStream(new File(confDir, "hdfs-site.xml").toPath())) {
      conf.writeXml(out);
    }
    dataNodeLog = new File(home, "datanode.log");
    Files.writeString(new File(confDir, "log4j.properties").toPath(),
        "log4j.rootLogger=INFO,F\n"
            + "log4j.appender.F=org.apache.log4j.FileAppender\n"
            + "log4j.appender.F.File=" + dataNodeLog + "\n"
            + "log4j.appender.F.layout=org.apache.log4j.PatternLayout\n"
            + "log4j.appender.F.layout.ConversionPattern=%d %p %c{1}: %m%n\n",
        StandardCharsets.UTF_8);
    Shell.execCommand("chown", "-R", USER + ":" + GROUP, home.getPath());
    // nobody must reach its directories: every directory above them open to search
    for (File d = WORK; d != null; d = d.getParentFile()) {
      if (!d.canExecute() || (Files.getPosixFilePermissions(d.toPath()).stream()
          .noneMatch(p -> p.name().equals("OTHERS_EXECUTE")))) {
        Shell.execCommand("chmod", "o+x", d.getPath());
      }
    }
    String java = new File(System.getProperty("java.home"), "bin/java").getPath();
    ProcessBuilder builder = new ProcessBuilder("setpriv", "--reuid=" + USER,
        "--regid=" + GROUP, "--clear-groups", "--", java, "-Xmx256m", "-XX:+UseSerialGC",
        "-Duser.home=" + home, "-cp", String.join(File.pathSeparator, classpath),
        "org.apache.hadoop.hdfs.server.datanode.DataNode")
        .directory(home)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(new File(home, "datanode.out")));
    builder.environment().clear();
    builder.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
    builder.environment().put("HOME", home.getPath());
    return builder.start();
  }

  /** Runs a command as {@link #USER}; fails with its output when it fails. */
  private static void asUser(String... command) throws IOException {
    List<String> argv = new ArrayList<>(List.of("setpriv", "--reuid=" + USER, "--regid=" + GROUP,
        "--clear-groups", "--"));
    argv.addAll(List.of(command));
    Shell.execCommand(argv.toArray(new String[0]));
  }

  private static List<Path> blockFiles(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(p -> p.getFileName().toString().startsWith("blk_")).sorted()
          .toList();
    }
  }

  private static String log() {
    try {
      String out = Files.readString(new File(WORK, "datanode/datanode.out").toPath());
      String log = dataNodeLog != null && dataNodeLog.exists()
          ? Files.readString(dataNodeLog.toPath()) : "";
      String all = out + log;
      return all.length() > 8000 ? all.substring(all.length() - 8000) : all;
    } catch (IOException e) {
      return "(no DataNode log: " + e.getMessage() + ")";
    }
  }
}
