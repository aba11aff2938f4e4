package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

/**
 * A node's group in cgroup v2: {@code io.max} ({@code MAJ:MIN rbps=N wbps=N}) per device and
 * {@code memory.max}. The cluster's group enables {@code io} and {@code memory} for its
 * children and holds no process itself (v2's no-internal-process rule). Unlike v1, v2 charges
 * buffered writes to the writer's group, so the write throttle binds HDFS's block writes too.
 * A node's CPU limit ({@code cpu.max}) lives in the same group.
 */
final class CgroupV2Groups extends NodeCgroup {
  static final List<String> CONTROLLERS = List.of("io", "memory");

  private final File mountPoint;

  CgroupV2Groups(ClusterLayout layout, ResourceLedger ledger, File mountPoint) {
    super(layout, ledger);
    this.mountPoint = mountPoint;
  }

  @Override
  public int version() {
    return 2;
  }

  @Override
  public void create(String node, long memoryBytes) throws IOException {
    enable(mountPoint);
    File cluster = clusterGroup(mountPoint);
    createGroup(cluster);
    enable(cluster);
    File group = new File(cluster, node);
    createGroup(group);
    if (memoryBytes > 0) {
      write(new File(group, "memory.max"), Long.toString(memoryBytes));
    }
  }

  /** Lets {@code dir}'s children use io and memory (written only when not yet enabled). */
  private static void enable(File dir) throws IOException {
    File control = new File(dir, "cgroup.subtree_control");
    List<String> enabled = List.of(Files.readString(control.toPath()).trim().split("\\s+"));
    if (!enabled.containsAll(CONTROLLERS)) {
      write(control, "+io +memory");
    }
  }

  @Override
  public void throttle(String node, String majorMinor, long readBps, long writeBps)
      throws IOException {
    write(new File(new File(clusterGroup(mountPoint), node), "io.max"), majorMinor
        + " rbps=" + (readBps > 0 ? readBps : "max") + " wbps=" + (writeBps > 0 ? writeBps
        : "max"));
  }

  /**
   * Enables the cpu controller below the mount point and the cluster's group (only for a
   * cluster that limits CPU, so other clusters' groups are as before), then writes
   * {@code cpu.max}.
   */
  @Override
  public void limitCpu(String node, double cpus) throws IOException {
    long quota = cpuQuotaMicros(cpus);
    if (!CgroupMounts.v2Controllers(mountPoint).contains("cpu")) {
      throw new IOException("the cgroup v2 hierarchy at " + mountPoint + " does not offer the"
          + " cpu controller (its cgroup.controllers: "
          + String.join(" ", CgroupMounts.v2Controllers(mountPoint)) + "), so a node's CPU"
          + " cannot be limited here");
    }
    enableCpu(mountPoint);
    enableCpu(clusterGroup(mountPoint));
    write(new File(new File(clusterGroup(mountPoint), node), "cpu.max"), quota + " "
        + CPU_PERIOD_MICROS);
  }

  private static void enableCpu(File dir) throws IOException {
    File control = new File(dir, "cgroup.subtree_control");
    if (!List.of(Files.readString(control.toPath()).trim().split("\\s+")).contains("cpu")) {
      write(control, "+cpu");
    }
  }

  @Override
  public List<File> procsFiles(String node) {
    return List.of(new File(new File(clusterGroup(mountPoint), node), "cgroup.procs"));
  }

  @Override
  public List<File> clusterGroups() {
    return List.of(clusterGroup(mountPoint));
  }

  @Override
  public long oomKills(String node) {
    return oomKillCount(new File(new File(clusterGroup(mountPoint), node), "memory.events"));
  }
}
