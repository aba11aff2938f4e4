package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** A spec built by name: its defaults, what it insists on, and a copy changed in one value. */
class NetnsClusterSpecBuilderTest {
  private static final File DIST = new File("/dist/share/locus/lib");

  @Test
  void theDefaultsAreAStockClusterWithOneNameNodeAndNoLimits() {
    NetnsClusterSpec spec = NetnsClusterSpec.builder(3, DIST).nodeMemory(1L << 30)
        .diskSize(512L << 20).build();
    assertEquals(new NetnsClusterSpec(3, false, 0, 0, 0, 0, 0, 1L << 30, 0, 512L << 20,
        List.of("DISK"), "", Map.of(), DIST, MetadataLayout.MASTER, false, DiskModel.NONE), spec);
  }

  @Test
  void ssdVolumesAreThrottledLikeTheOtherDevicesUnlessSetApart() {
    NetnsClusterSpec same = NetnsClusterSpec.builder(2, DIST).disk(30, 10).nodeMemory(1)
        .diskSize(1).volumes(List.of("SSD", "DISK")).build();
    assertEquals(30, same.volumeReadBytesPerSecond(0));
    assertEquals(10, same.volumeWriteBytesPerSecond(0));
    NetnsClusterSpec apart = same.toBuilder().ssd(300, 200).build();
    assertEquals(300, apart.volumeReadBytesPerSecond(0));
    assertEquals(200, apart.volumeWriteBytesPerSecond(0));
    assertEquals(30, apart.volumeReadBytesPerSecond(1), "the DISK volume keeps its throttle");
  }

  @Test
  void aCopyChangesOnlyWhatItSets() {
    NetnsClusterSpec spec = NetnsClusterSpec.builder(4, DIST).yarn(true).link(1_000_000)
        .nodeMemory(2L << 30).nodeCpus(0.5).diskSize(1L << 30).replicatedVolume("NVDIMM")
        .keys(Map.of("k", "v")).daemonUsers(true).build();
    assertEquals(spec, spec.toBuilder().build());
    NetnsClusterSpec sdp = spec.withMetadata(MetadataLayout.SDP);
    assertEquals(MetadataLayout.SDP, sdp.metadata());
    assertEquals(spec, sdp.withMetadata(MetadataLayout.MASTER));
  }

  @Test
  void theNodeMemoryAndDiskSizeMustBeSet() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> NetnsClusterSpec.builder(2, DIST).diskSize(1L << 30).build());
    assertTrue(e.getMessage().contains("node memory"), e.getMessage());
    assertThrows(IllegalStateException.class,
        () -> NetnsClusterSpec.builder(2, DIST).nodeMemory(1L << 30).build());
  }
}
