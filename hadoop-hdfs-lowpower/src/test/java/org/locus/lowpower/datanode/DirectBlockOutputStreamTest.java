package org.locus.lowpower.datanode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The O_DIRECT block stream against a plain {@link FileOutputStream} doing the same writes.
 * Files live under target/ (an ext4/xfs-like file system: tmpfs may refuse O_DIRECT). Costs
 * under a second.
 */
class DirectBlockOutputStreamTest {
  private Path dir;

  @BeforeEach
  void freshDirectory() throws IOException {
    dir = Path.of(System.getProperty("test.build.data", "target/test-data"), "direct-io");
    Files.createDirectories(dir);
    for (File f : dir.toFile().listFiles()) {
      Files.delete(f.toPath());
    }
  }

  @Test
  void contentsEqualAPlainWriteOfTheSameWritesAndFlushes() throws IOException {
    File direct = dir.resolve("direct").toFile();
    File plain = dir.resolve("plain").toFile();
    Random random = new Random(14);
    try (OutputStream d = DirectBlockOutputStream.open(direct, 0, 64 * 1024);
        OutputStream p = new FileOutputStream(plain)) {
      for (int i = 0; i < 300; i++) {
        byte[] chunk = new byte[random.nextInt(9000)];
        random.nextBytes(chunk);
        d.write(chunk);
        p.write(chunk);
        if (random.nextInt(4) == 0) {
          d.flush();
        }
      }
      d.write(7);
      p.write(7);
    }
    assertArrayEquals(Files.readAllBytes(plain.toPath()), Files.readAllBytes(direct.toPath()));
  }

  @Test
  void flushMakesEveryWrittenByteVisibleToAReader() throws IOException {
    File file = dir.resolve("flushed").toFile();
    byte[] data = new byte[10_001];
    new Random(3).nextBytes(data);
    try (OutputStream out = DirectBlockOutputStream.open(file, 0, 64 * 1024)) {
      out.write(data);
      out.flush();
      assertArrayEquals(data, Files.readAllBytes(file.toPath()));
    }
  }

  @Test
  void openingAtAnUnalignedLengthAppendsAsAPlainAppendWould() throws IOException {
    File file = dir.resolve("appended").toFile();
    byte[] first = new byte[5_000];
    byte[] second = new byte[7_000];
    new Random(5).nextBytes(first);
    new Random(6).nextBytes(second);
    Files.write(file.toPath(), first);
    try (OutputStream out = DirectBlockOutputStream.open(file, first.length, 64 * 1024)) {
      out.write(second);
    }
    byte[] expected = new byte[first.length + second.length];
    System.arraycopy(first, 0, expected, 0, first.length);
    System.arraycopy(second, 0, expected, first.length, second.length);
    assertArrayEquals(expected, Files.readAllBytes(file.toPath()));
  }

  @Test
  void blockFileIsOpenWithODirect() throws IOException {
    File file = dir.resolve("odirect").toFile();
    try (OutputStream out = DirectBlockOutputStream.open(file, 0, 4096)) {
      out.write(new byte[8192]);
      assertTrue(OpenDescriptors.anyHasODirect(file.toPath()),
          "no descriptor of " + file + " in /proc/self/fdinfo has O_DIRECT");
    }
  }

  @Test
  void alignmentIsAWholePageEvenWhereTheJdkCannotFindTheMount() {
    int here = DirectBlockOutputStream.alignment(dir);
    assertTrue(here >= 4096 && here % 4096 == 0, "alignment " + here);
    // Files.getFileStore fails for a path it cannot stat (and, in a chroot, for every path):
    // the stream still gets an alignment every device accepts.
    assertEquals(4096, DirectBlockOutputStream.alignment(dir.resolve("no/such/dir")));
  }

  @Test
  void probeAcceptsThisFileSystemAndLeavesNothingBehind() throws IOException {
    DirectBlockOutputStream.requireSupport(dir.toFile());
    assertEquals(0, dir.toFile().list().length);
  }

  /** ramfs has no O_DIRECT (tmpfs has since Linux 6.6); mounting it needs root, as the suite has. */
  @Test
  void probeRefusesAFileSystemWithoutODirect() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        "root".equals(System.getProperty("user.name")), "mounting ramfs needs root");
    File ramfs = dir.resolve("ramfs").toFile();
    assertTrue(ramfs.mkdir());
    run("mount", "-t", "ramfs", "locus-no-odirect", ramfs.getPath());
    try {
      IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
          () -> DirectBlockOutputStream.requireSupport(ramfs));
      assertTrue(e.getMessage().contains("Invalid argument"), e.getMessage());
      assertEquals(0, ramfs.list().length, "the probe file is removed after a refusal");
    } finally {
      run("umount", ramfs.getPath());
      Files.delete(ramfs.toPath());
    }
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + output);
  }
}
