package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Finding the cgroup hierarchies in mountinfo text, and choosing between v2 and v1. */
class CgroupMountsTest {
  /** A hybrid host: v1 controllers plus a v2 mount that only holds hugetlb. */
  private static final String HYBRID = String.join("\n",
      "22 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard",
      "30 22 0:26 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
      "31 30 0:27 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
      "33 30 0:29 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio",
      "34 30 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
      "35 30 0:31 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd",
      "36 30 0:32 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct", "");
  /** Debian 12 as installed: v2 only, at /sys/fs/cgroup. */
  private static final String UNIFIED = String.join("\n",
      "22 1 254:0 / / rw,relatime - ext4 /dev/vda rw",
      "30 22 0:26 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate", "");

  private static final Map<String, Set<String>> V2 = Map.of(
      "/sys/fs/cgroup/unified", Set.of("hugetlb"),
      "/sys/fs/cgroup", Set.of("cpuset", "cpu", "io", "memory", "pids"));

  private static List<CgroupMounts.Hierarchy> parse(String text) {
    return CgroupMounts.parse(text, dir -> V2.getOrDefault(dir.getPath(), Set.of()));
  }

  @Test
  void hybridHostGivesV1ControllersAndAV2MountWithoutIo() {
    List<CgroupMounts.Hierarchy> found = parse(HYBRID);
    assertEquals(5, found.size());
    assertEquals(new File("/sys/fs/cgroup/blkio"), CgroupMounts.v1(found, "blkio").orElseThrow()
        .mountPoint());
    assertEquals(new File("/sys/fs/cgroup/cpu,cpuacct"), CgroupMounts.v1(found, "cpuacct")
        .orElseThrow().mountPoint());
    assertTrue(CgroupMounts.v1(found, "name=systemd").isEmpty(), "name= is an option");
    assertTrue(CgroupMounts.v2(found, List.of("io", "memory")).isEmpty());
  }

  @Test
  void hybridHostIsServedByV1AndAUnifiedHostByV2() {
    ClusterLayout layout = new ClusterLayout(new File("/tmp/some-cluster"));
    ResourceLedger ledger = new ResourceLedger(new File("/nonexistent/ledger"));
    NodeCgroup hybrid = NodeCgroup.find(layout, ledger, parse(HYBRID)).orElseThrow();
    assertInstanceOf(CgroupV1Groups.class, hybrid);
    String group = "/locus-" + layout.id() + "/node1/cgroup.procs";
    assertEquals(List.of(new File("/sys/fs/cgroup/blkio" + group),
        new File("/sys/fs/cgroup/memory" + group)),
        hybrid.procsFiles("node1"));
    NodeCgroup unified = NodeCgroup.find(layout, ledger, parse(UNIFIED)).orElseThrow();
    assertInstanceOf(CgroupV2Groups.class, unified);
    assertEquals(List.of(new File("/sys/fs/cgroup/locus-" + layout.id())),
        unified.clusterGroups());
  }

  @Test
  void aRootWithoutCgroupMountsOffersNothing() {
    assertTrue(NodeCgroup.find(new ClusterLayout(new File("/tmp/x")),
        new ResourceLedger(new File("/nonexistent")),
        parse("22 1 254:0 / / rw - ext4 /dev/vda rw\n")).isEmpty());
    // Half of v1 is not enough either.
    assertTrue(NodeCgroup.find(new ClusterLayout(new File("/tmp/x")),
        new ResourceLedger(new File("/nonexistent")),
        parse("33 30 0:29 / /c/blkio rw - cgroup cgroup rw,blkio\n")).isEmpty());
  }

  @Test
  void octalEscapesInMountPointsAreDecoded() {
    List<CgroupMounts.Hierarchy> found =
        parse("40 22 0:40 / /run/my\\040groups rw - cgroup cgroup rw,memory\n");
    assertEquals(new File("/run/my groups"), found.get(0).mountPoint());
    assertEquals("a\\b", CgroupMounts.unescape("a\\134b"));
    assertEquals("tail\\04", CgroupMounts.unescape("tail\\04"));
  }
}
