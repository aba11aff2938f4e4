package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import com.sun.nio.file.ExtendedOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --disk-model hdd} below the cluster: a netns disk made by {@link LoopDisk} over a real
 * {@code zonedisk --drive} (FUSE) and a real loop device, then removed by the cluster's own
 * {@link ClusterTeardown} from the ledger alone. Needs root, FUSE and the built
 * {@code zonectl/zonedisk/zonedisk}, as the netns tests do. Seconds.
 */
class HddEmulatorTest {
  private static final File ZONEDISK = new File("../zonectl/zonedisk/zonedisk").getAbsoluteFile();
  private static final long SIZE = 64L << 20;

  @TempDir
  Path tmp;
  private ClusterLayout layout;
  private ResourceLedger ledger;

  @BeforeEach
  void layoutAndLedger() {
    assertTrue(ZONEDISK.canExecute(), ZONEDISK + " is not built (make -C zonectl)");
    layout = new ClusterLayout(tmp.toFile());
    ledger = new ResourceLedger(layout.ledgerFile());
  }

  @AfterEach
  void removeWhatIsLeft() throws IOException {
    new ClusterTeardown(layout).run();
  }

  @Test
  void dataWrittenThroughTheEmulatedDriveReadsBackAndItsRequestsPayTheModel() throws Exception {
    File image = layout.diskImage("node1", "vol0");
    File mount = layout.mountPoint("node1", "vol0");
    LoopDisk.Attached disk = emulatedDisk("node1", "vol0");
    File served = new File(HddEmulator.directoryFor(image), "disk");
    assertEquals(served.getPath(), LoopDisk.backingFile(disk.device()),
        "the loop device reads the paced file, not the image");

    byte[] data = new byte[3 << 20];
    new Random(48).nextBytes(data);
    Path file = new File(mount, "blk_1").toPath();
    Files.write(file, data);
    HostCommand.run("sync", "-f", file.toString());
    // Read the device around the page cache, at random offsets: each read moves the head.
    Random offsets = new Random(7);
    ByteBuffer block = ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096);
    try (FileChannel device = FileChannel.open(Path.of(disk.device()),
        StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
      for (int i = 0; i < 20; i++) {
        block.clear().limit(4096);
        device.read(block, (offsets.nextLong(SIZE / 4096)) * 4096);
      }
    }
    Map<String, String> stats = stats(served.getParentFile());
    assertEquals(DiskModel.HDD_DRIVE, stats.get("drive"));
    assertTrue(Long.parseLong(stats.get("write_bytes")) >= data.length,
        "the file's bytes went through the model: " + stats);
    assertTrue(Long.parseLong(stats.get("seeks")) >= 10, "random reads seek: " + stats);
    assertTrue(Double.parseDouble(stats.get("seek_s")) > 0
        && Double.parseDouble(stats.get("rotation_s")) > 0, "modelled seek and rotation time: "
        + stats);

    HostCommand.run("umount", mount.getPath());
    HostCommand.run("mount", "-t", "ext4", disk.device(), mount.getPath());
    assertArrayEquals(data, Files.readAllBytes(file), "read back after a remount");
  }

  @Test
  void teardownFromTheLedgerStopsTheDriveAfterItsLoopDeviceAndLeavesNothing() throws Exception {
    File image = layout.diskImage("node2", "nmlocal");
    File mount = layout.mountPoint("node2", "nmlocal");
    LoopDisk.Attached disk = emulatedDisk("node2", "nmlocal");
    File dir = HddEmulator.directoryFor(image);
    assertEquals(List.of("file", HddEmulator.KIND, "loop", "mount"), ledger.entries().stream()
        .map(ResourceLedger.Entry::kind).toList(), "created in this order, removed in reverse");
    assertTrue(MountTable.isMounted(dir));

    assertEquals(List.of(), new ClusterTeardown(layout).run());
    assertFalse(MountTable.isMounted(mount), "ext4 unmounted");
    assertEquals("", LoopDisk.backingFile(disk.device()), "loop device detached");
    assertFalse(MountTable.isMounted(dir), "zonedisk unmounted");
    assertFalse(image.exists(), "image deleted");
    assertEquals("", HostCommand.attempt("pgrep", "-f", "zonedisk.*" + dir.getPath()).output()
        .trim(), "no zonedisk left running");
    assertEquals(List.of(), new ClusterTeardown(layout).run(), "a second run finds nothing");
  }

  @Test
  void aDriveStillUnderItsLoopDeviceIsReportedAndKeptMountedNeverDetachedLazily()
      throws Exception {
    File image = layout.diskImage("node1", "vol0");
    emulatedDisk("node1", "vol0");
    File dir = HddEmulator.directoryFor(image);
    IOException busy = assertThrows(IOException.class, () -> HddEmulator.stop(dir));
    assertTrue(busy.getMessage().contains("zonedisk on " + dir + " stays mounted"),
        busy.getMessage());
    assertTrue(MountTable.isMounted(dir), "left mounted, so a later down still finds it");
    assertEquals(DiskModel.HDD_DRIVE, stats(dir).get("drive"), "and it still serves");
    assertEquals(List.of(), new ClusterTeardown(layout).run(), "down in order removes it all");
    assertFalse(MountTable.isMounted(dir));
  }

  @Test
  void aMissingZonediskIsNamedBeforeAnythingIsRecorded() throws Exception {
    File missing = new File(tmp.toFile(), "dist/bin/zonedisk");
    IOException refused = assertThrows(IOException.class,
        () -> new HddEmulator(missing, ledger).serve(layout.diskImage("node1", "vol0"), SIZE));
    assertTrue(refused.getMessage().contains(missing.getPath())
        && refused.getMessage().contains("scripts/setup"), refused.getMessage());
    assertTrue(ledger.isEmpty());
  }

  @Test
  void theModelIsChosenByItsWordAndAnUnknownOneIsNamed() {
    assertEquals(DiskModel.HDD, DiskModel.of("--disk-model", "hdd"));
    assertEquals(DiskModel.NONE, DiskModel.of("--disk-model", " none "));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DiskModel.of("--disk-model", "ssd"));
    assertEquals("unknown disk model 'ssd' for --disk-model; one of none, hdd", e.getMessage());
    assertTrue(DiskModel.HDD.label().contains("simulated hardware"));
  }

  /** A node disk on the emulated HDD, made as {@code up --disk-model hdd} makes it. */
  private LoopDisk.Attached emulatedDisk(String node, String disk) throws IOException {
    return new LoopDisk(ledger, new HddEmulator(ZONEDISK, ledger))
        .create(layout.diskImage(node, disk), SIZE, layout.mountPoint(node, disk));
  }

  private static Map<String, String> stats(File dir) throws IOException {
    Map<String, String> stats = new HashMap<>();
    for (String line : Files.readAllLines(new File(dir, "stats").toPath())) {
      String[] fields = line.trim().split("\\s+", 2);
      if (fields.length == 2) {
        stats.put(fields[0], fields[1]);
      }
    }
    return stats;
  }
}
