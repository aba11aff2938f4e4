package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the cgroup v1 mechanism writes for a node's CPU limit, on directory trees shaped like
 * the blkio, memory and cpu hierarchies: a group in the cpu hierarchy with the period and the
 * quota, recorded in the ledger (so {@code down} removes it), and a process of the node joins
 * it as well as its blkio and memory groups.
 */
class CgroupV1GroupsTest {
  @TempDir
  Path root;

  @Test
  void aCpuLimitIsAGroupInTheCpuHierarchyThatNodeProcessesJoin() throws IOException {
    ClusterLayout layout = new ClusterLayout(root.resolve("cluster").toFile());
    ResourceLedger ledger = new ResourceLedger(root.resolve("ledger").toFile());
    File blkio = hierarchy("blkio");
    File memory = hierarchy("memory");
    File cpu = hierarchy("cpu");
    CgroupV1Groups groups = new CgroupV1Groups(layout, ledger, blkio, memory, Optional.of(cpu));
    groups.create("node1", 1L << 30);
    assertEquals(2, groups.procsFiles("node1").size(), "no cpu group before a CPU limit");

    groups.limitCpu("node1", 1.5);

    File group = new File(new File(cpu, "locus-" + layout.id()), "node1");
    assertEquals("100000", read(new File(group, "cpu.cfs_period_us")));
    assertEquals("150000", read(new File(group, "cpu.cfs_quota_us")));
    // The kernel makes cgroup.procs with the group; here the test does.
    Files.writeString(new File(group, "cgroup.procs").toPath(), "");
    assertTrue(groups.procsFiles("node1").contains(new File(group, "cgroup.procs")),
        groups.procsFiles("node1").toString());
    assertTrue(groups.clusterGroups().contains(group.getParentFile()),
        groups.clusterGroups().toString());
    List<String> recorded = ledger.entries().stream()
        .filter(e -> e.kind().equals("cgroup")).map(ResourceLedger.Entry::name).toList();
    assertTrue(recorded.contains(group.getPath()) && recorded.contains(group.getParent()),
        recorded.toString());
  }

  /**
   * The kernel's count of processes killed at the node's memory limit, from the node's
   * {@code memory.oom_control} in the memory hierarchy (the three lines this host's kernel
   * prints there); 0 for a node whose group is gone.
   */
  @Test
  void readsTheMemoryLimitsKillsFromTheNodesOomControl() throws IOException {
    ClusterLayout layout = new ClusterLayout(root.resolve("cluster").toFile());
    File memory = hierarchy("memory");
    CgroupV1Groups groups = new CgroupV1Groups(layout,
        new ResourceLedger(root.resolve("ledger").toFile()), hierarchy("blkio"), memory,
        Optional.empty());
    groups.create("node1", 1L << 30);
    File group = new File(new File(memory, "locus-" + layout.id()), "node1");
    Files.writeString(new File(group, "memory.oom_control").toPath(),
        "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");

    assertEquals(3, groups.oomKills("node1"));
    assertEquals(0, groups.oomKills("node2"), "no group, no kill");
  }

  private File hierarchy(String name) throws IOException {
    File dir = root.resolve(name).toFile();
    Files.createDirectories(dir.toPath());
    return dir;
  }

  private static String read(File file) throws IOException {
    return Files.readString(file.toPath()).trim();
  }
}
