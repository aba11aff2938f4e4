package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spec as it travels to the supervisor, and the directory a cluster lives in. Milliseconds. */
class NetnsSpecFileTest {
  @Test
  void aSpecReadsBackAsWritten(@TempDir Path tmp) throws Exception {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("dfs.blocksize", "1048576");
    keys.put("dfs.replication", "2");
    NetnsClusterSpec spec = NetnsClusterSpec.builder(3, new File("/dist/share/locus/lib"))
        .yarn(true).link(10_000_000L).disk(20_000_000L, 0).ssd(200_000_000L, 150_000_000L)
        .nodeMemory(2L << 30).nodeCpus(0.75).diskSize(1L << 30)
        .volumes(List.of("SSD", "DISK", "ARCHIVE")).replicatedVolume("NVDIMM").keys(keys)
        .daemonUsers(true).diskModel(DiskModel.HDD).build();
    ClusterDirectory dir = new ClusterDirectory(tmp.toFile());
    NetnsSpecFile.write(spec, NetnsSpecFile.in(dir));
    assertEquals(new File(tmp.toFile(), "netns.spec"), NetnsSpecFile.in(dir));
    NetnsClusterSpec read = NetnsSpecFile.read(NetnsSpecFile.in(dir));
    assertEquals(spec.nodes(), read.nodes());
    assertEquals(spec.yarn(), read.yarn());
    assertEquals(spec.linkBitsPerSecond(), read.linkBitsPerSecond());
    assertEquals(spec.diskReadBytesPerSecond(), read.diskReadBytesPerSecond());
    assertEquals(spec.diskWriteBytesPerSecond(), read.diskWriteBytesPerSecond());
    assertEquals(spec.nodeMemoryBytes(), read.nodeMemoryBytes());
    assertEquals(0.75, read.nodeCpus());
    assertTrue(read.daemonUsers(), "--daemon-users survives the trip to the supervisor");
    assertEquals(DiskModel.HDD, read.diskModel(), "--disk-model survives it too");
    assertEquals("NVDIMM", read.replicatedVolume());
    assertEquals(spec.diskBytes(), read.diskBytes());
    assertEquals(spec.volumes(), read.volumes());
    assertEquals(spec.keys(), read.keys());
    assertEquals(spec.distLibDir(), read.distLibDir());
    assertEquals(spec, read);
    assertEquals(200_000_000L, read.volumeReadBytesPerSecond(0), "the SSD volume's device");
    assertEquals(150_000_000L, read.volumeWriteBytesPerSecond(0));
    assertEquals(20_000_000L, read.volumeReadBytesPerSecond(1), "a DISK volume's device");
    assertEquals(0, read.volumeWriteBytesPerSecond(2), "ARCHIVE: the disk rate, unlimited");
  }

  @Test
  void anOlderSpecFileThrottlesSsdVolumesLikeTheOthersAndLimitsNoCpu(@TempDir Path tmp)
      throws Exception {
    NetnsClusterSpec spec = NetnsClusterSpec.builder(2, new File("/dist/share/locus/lib"))
        .disk(30_000_000L, 10_000_000L).nodeMemory(2L << 30).diskSize(1L << 30)
        .volumes(List.of("SSD")).build();
    File file = new File(tmp.toFile(), "netns.spec");
    NetnsSpecFile.write(spec, file);
    List<String> older = Files.readAllLines(file.toPath()).stream()
        .filter(line -> !line.startsWith("ssd") && !line.startsWith("nodeCpus")
            && !line.startsWith("replicatedVolume") && !line.startsWith("diskModel")).toList();
    Files.write(file.toPath(), older);
    NetnsClusterSpec read = NetnsSpecFile.read(file);
    assertEquals(30_000_000L, read.volumeReadBytesPerSecond(0));
    assertEquals(10_000_000L, read.volumeWriteBytesPerSecond(0));
    assertEquals(0, read.nodeCpus(), "a file from before --node-cpus: unlimited");
    assertFalse(read.hasReplicatedVolume(), "a file from before --replicated-volume: none");
    assertEquals(DiskModel.NONE, read.diskModel(), "a file from before --disk-model: plain");
  }

  @Test
  void aDirectoryIsLiveWhileItsLockIsHeldAndKeepsItsState(@TempDir Path tmp) throws Exception {
    ClusterDirectory dir = new ClusterDirectory(tmp.toFile());
    assertFalse(dir.isLive());
    Properties state = new Properties();
    state.setProperty("kind", "netns");
    state.setProperty("state", "up");
    dir.writeState(state);
    dir.writePid(4242);
    assertEquals("up", dir.readState().getProperty("state"));
    assertEquals(4242L, dir.pid().orElseThrow());
    assertTrue(dir.acquire().isPresent());
    assertTrue(dir.isLive(), "the lock this process holds makes the directory live");
    assertTrue(Files.isRegularFile(dir.lockFile().toPath()));
  }
}
