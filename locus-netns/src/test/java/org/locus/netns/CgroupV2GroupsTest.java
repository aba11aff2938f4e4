package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the cgroup v2 mechanism writes, on a directory tree shaped like a v2 hierarchy (this
 * build host binds io to cgroup v1, so a real v2 io group cannot be made here): controllers
 * enabled top-down, the memory cap, and one {@code io.max} line per device.
 */
class CgroupV2GroupsTest {
  @TempDir
  Path root;

  @Test
  void enablesIoAndMemoryAndWritesTheKernelsLineFormats() throws IOException {
    ClusterLayout layout = new ClusterLayout(root.resolve("cluster").toFile());
    ResourceLedger ledger = new ResourceLedger(root.resolve("ledger").toFile());
    File hierarchy = root.resolve("hierarchy").toFile();
    File cluster = new File(hierarchy, "locus-" + layout.id());
    File node = new File(cluster, "node1");
    // What the kernel would show: the root has only cpu enabled; new groups start empty.
    Files.createDirectories(node.toPath());
    Files.writeString(new File(hierarchy, "cgroup.subtree_control").toPath(), "cpu\n");
    Files.writeString(new File(cluster, "cgroup.subtree_control").toPath(), "\n");
    CgroupV2Groups groups = new CgroupV2Groups(layout, ledger, hierarchy);

    groups.create("node1", 1L << 30);
    groups.throttle("node1", "7:3", 20_000_000, 0);

    assertEquals("+io +memory", read(new File(hierarchy, "cgroup.subtree_control")));
    assertEquals("+io +memory", read(new File(cluster, "cgroup.subtree_control")));
    assertEquals("1073741824", read(new File(node, "memory.max")));
    assertEquals("7:3 rbps=20000000 wbps=max", read(new File(node, "io.max")));
    assertEquals(List.of(new File(node, "cgroup.procs")), groups.procsFiles("node1"));
    assertEquals(2, groups.version());
  }

  /**
   * A CPU limit enables the cpu controller top-down and writes the quota per period; a
   * hierarchy that does not offer cpu is refused, naming it and what it offers.
   */
  @Test
  void aCpuLimitWritesCpuMaxOnlyWhereTheHierarchyOffersCpu() throws IOException {
    ClusterLayout layout = new ClusterLayout(root.resolve("cluster").toFile());
    ResourceLedger ledger = new ResourceLedger(root.resolve("ledger").toFile());
    File hierarchy = root.resolve("hierarchy").toFile();
    File cluster = new File(hierarchy, "locus-" + layout.id());
    File node = new File(cluster, "node1");
    Files.createDirectories(node.toPath());
    Files.writeString(new File(hierarchy, "cgroup.controllers").toPath(), "io memory pids\n");
    Files.writeString(new File(hierarchy, "cgroup.subtree_control").toPath(), "io memory\n");
    Files.writeString(new File(cluster, "cgroup.subtree_control").toPath(), "io memory\n");
    CgroupV2Groups groups = new CgroupV2Groups(layout, ledger, hierarchy);

    IOException refused = assertThrows(IOException.class, () -> groups.limitCpu("node1", 0.5));
    assertTrue(refused.getMessage().contains(hierarchy.getPath())
        && refused.getMessage().contains("io memory pids"), refused.getMessage());
    assertFalse(new File(node, "cpu.max").exists());

    Files.writeString(new File(hierarchy, "cgroup.controllers").toPath(),
        "cpu io memory pids\n");
    groups.limitCpu("node1", 0.5);
    assertEquals("+cpu", read(new File(hierarchy, "cgroup.subtree_control")));
    assertEquals("+cpu", read(new File(cluster, "cgroup.subtree_control")));
    assertEquals("50000 100000", read(new File(node, "cpu.max")));
  }

  /**
   * The kernel's count of processes killed at the node's memory limit, read from the node's
   * {@code memory.events} as the kernel writes it; 0 for a node whose group is gone.
   */
  @Test
  void readsTheMemoryLimitsKillsFromTheNodesEvents() throws IOException {
    ClusterLayout layout = new ClusterLayout(root.resolve("cluster").toFile());
    File hierarchy = root.resolve("hierarchy").toFile();
    File node = new File(new File(hierarchy, "locus-" + layout.id()), "node3");
    Files.createDirectories(node.toPath());
    Files.writeString(new File(node, "memory.events").toPath(),
        "low 0\nhigh 0\nmax 212\noom 3\noom_kill 2\noom_group_kill 0\n");
    CgroupV2Groups groups = new CgroupV2Groups(layout,
        new ResourceLedger(root.resolve("ledger").toFile()), hierarchy);

    assertEquals(2, groups.oomKills("node3"));
    assertEquals(0, groups.oomKills("node4"), "no group, no kill");
  }

  private static String read(File file) throws IOException {
    return Files.readString(file.toPath()).trim();
  }
}
