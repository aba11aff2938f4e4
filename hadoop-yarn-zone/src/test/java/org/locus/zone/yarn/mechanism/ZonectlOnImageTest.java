package org.locus.zone.yarn.mechanism;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.zone.yarn.policy.ZoneClass;

/**
 * {@link Zonectl} against the real zonectl ({@code make -s -C zonectl all}) on an unmounted
 * 64 MiB ext4 image.
 */
class ZonectlOnImageTest {

  private static final String OUTER = "16M";

  @TempDir
  Path dir;
  private String image;
  private Zonectl zonectl;
  private CommandRunner runner;

  @BeforeEach
  void setUp() throws IOException {
    Path binary = Path.of(System.getProperty("user.dir")).resolve("../zonectl/zonectl")
        .normalize();
    if (!Files.isExecutable(binary)) {
      fail(binary + " is missing: build it first with 'make -s -C zonectl all' in the checkout");
    }
    Path state = Files.createDirectory(dir.resolve("zonectl-state"));
    runner = new CommandRunner(Duration.ofSeconds(60),
        Map.of("ZONECTL_STATE_DIR", state.toString()));
    image = dir.resolve("local-dir.img").toString();
    run(0, "mke2fs", "-q", "-F", "-t", "ext4", "-b", "4096", image, "64M");
    zonectl = new Zonectl(ZoneCommands.direct(binary.toString()), runner);
  }

  @Test
  void tempThenPermThenReleaseLeavesACleanFileSystem() throws IOException {
    ZoneState before = zonectl.status(image);
    assertEquals("none", before.state());

    zonectl.area(image, ZoneClass.TEMP, OUTER);
    ZoneState temp = zonectl.status(image);
    assertEquals("reserved", temp.state());
    assertEquals("temp", temp.zoneClass());
    assertEquals(0, temp.start());
    assertEquals(16L * 1024 * 1024 / temp.blockSize(), temp.end());

    zonectl.area(image, ZoneClass.PERM, OUTER);
    ZoneState perm = zonectl.status(image);
    assertEquals("reserved", perm.state());
    assertEquals("perm", perm.zoneClass());
    assertEquals(temp.end(), perm.start());

    ZoneState released = zonectl.release(image);
    assertEquals("none", released.state());
    assertEquals(before.fsFreeBlocks(), released.fsFreeBlocks());
    run(0, "e2fsck", "-fn", image);
  }

  @Test
  void theSameClassTwiceWritesNothing() throws IOException {
    zonectl.area(image, ZoneClass.TEMP, OUTER);
    byte[] once = digest(image);
    ZoneState again = zonectl.area(image, ZoneClass.TEMP, OUTER);
    assertEquals("temp", again.zoneClass());
    assertArrayEquals(once, digest(image));
    zonectl.release(image);
  }

  @Test
  void aFileThatIsNoExtFileSystemIsRefusedAndLeftAlone() throws IOException {
    Path junk = dir.resolve("junk.img");
    Files.write(junk, new byte[1 << 20]);
    ZonectlException e = assertThrows(ZonectlException.class,
        () -> zonectl.area(junk.toString(), ZoneClass.TEMP, "64K"));
    assertEquals(ZonectlException.NOT_EXT, e.exitCode());
    assertTrue(e.getMessage().contains(junk.toString()), e.getMessage());
    assertArrayEquals(new byte[1 << 20], Files.readAllBytes(junk));
  }

  @Test
  void anOuterAreaLargerThanTheFileSystemIsRefused() throws IOException {
    ZonectlException e = assertThrows(ZonectlException.class,
        () -> zonectl.area(image, ZoneClass.TEMP, "1G"));
    assertEquals(ZonectlException.RANGE, e.exitCode());
    assertEquals("none", zonectl.status(image).state());
  }

  @Test
  void aProfileThatFallsBackIsTempAndOneThatStaysIsPerm() throws IOException {
    Path shuffle = dir.resolve("shuffle.profile");
    Files.writeString(shuffle, "0 1000\n10 5000\n20 9000\n30 1200\n");
    Path reduce = dir.resolve("reduce.profile");
    Files.writeString(reduce, "0 1000\n10 5000\n20 9000\n30 9000\n");
    assertEquals(ZoneClass.TEMP, zonectl.classify(shuffle.toString(), 0.1));
    assertEquals(ZoneClass.PERM, zonectl.classify(reduce.toString(), 0.1));
  }

  private void run(int expectedExit, String... argv) throws IOException {
    CommandRunner.Result r = runner.run(List.of(argv));
    assertEquals(expectedExit, r.exitCode(), String.join(" ", argv) + ": " + r.stdout()
        + r.stderr());
  }

  private static byte[] digest(String file) throws IOException {
    try {
      return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(Path.of(file)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
