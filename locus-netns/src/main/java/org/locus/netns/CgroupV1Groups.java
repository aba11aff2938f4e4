package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A node's groups in cgroup v1: one in the {@code blkio} hierarchy
 * ({@code blkio.throttle.read_bps_device}, {@code write_bps_device}) and one in the
 * {@code memory} hierarchy ({@code memory.limit_in_bytes}).
 *
 * <p>cgroup v1 charges buffered writes to the flusher thread, not to the writer: the write
 * throttle binds direct and synchronous writes only (HDFS writes block files buffered and
 * flushes them on close).
 *
 * <p>A node's CPU limit is a group in the {@code cpu} hierarchy
 * ({@code cpu.cfs_period_us}, {@code cpu.cfs_quota_us}), made only for a cluster that limits
 * CPU; the hierarchy is mounted under {@link NodeCgroup#OWN_MOUNTS} when the host has none.
 */
final class CgroupV1Groups extends NodeCgroup {
  static final List<String> CONTROLLERS = List.of("blkio", "memory");

  private final File blkio;
  private final File memory;
  /** The cpu hierarchy's mount point, if the host has one (or once {@link #limitCpu} made it). */
  private Optional<File> cpu;

  CgroupV1Groups(ClusterLayout layout, ResourceLedger ledger, File blkio, File memory,
      Optional<File> cpu) {
    super(layout, ledger);
    this.blkio = blkio;
    this.memory = memory;
    this.cpu = cpu;
  }

  @Override
  public int version() {
    return 1;
  }

  @Override
  public void create(String node, long memoryBytes) throws IOException {
    for (File hierarchy : List.of(blkio, memory)) {
      createGroup(clusterGroup(hierarchy));
      createGroup(new File(clusterGroup(hierarchy), node));
    }
    if (memoryBytes > 0) {
      write(new File(new File(clusterGroup(memory), node), "memory.limit_in_bytes"),
          Long.toString(memoryBytes));
    }
  }

  @Override
  public void throttle(String node, String majorMinor, long readBps, long writeBps)
      throws IOException {
    File group = new File(clusterGroup(blkio), node);
    if (readBps > 0) {
      write(new File(group, "blkio.throttle.read_bps_device"), majorMinor + " " + readBps);
    }
    if (writeBps > 0) {
      write(new File(group, "blkio.throttle.write_bps_device"), majorMinor + " " + writeBps);
    }
  }

  @Override
  public void limitCpu(String node, double cpus) throws IOException {
    long quota = cpuQuotaMicros(cpus);
    if (cpu.isEmpty()) {
      cpu = Optional.of(mountV1("cpu", List.of("cpu", "cpu,cpuacct")));
    }
    File group = new File(clusterGroup(cpu.get()), node);
    createGroup(clusterGroup(cpu.get()));
    createGroup(group);
    write(new File(group, "cpu.cfs_period_us"), Long.toString(CPU_PERIOD_MICROS));
    write(new File(group, "cpu.cfs_quota_us"), Long.toString(quota));
  }

  /** The node's groups; its cpu group only where {@link #limitCpu} made one. */
  @Override
  public List<File> procsFiles(String node) {
    List<File> files = new ArrayList<>(List.of(
        new File(new File(clusterGroup(blkio), node), "cgroup.procs"),
        new File(new File(clusterGroup(memory), node), "cgroup.procs")));
    cpu.map(mount -> new File(new File(clusterGroup(mount), node), "cgroup.procs"))
        .filter(File::isFile).ifPresent(files::add);
    return files;
  }

  @Override
  public long oomKills(String node) {
    return oomKillCount(new File(new File(clusterGroup(memory), node), "memory.oom_control"));
  }

  @Override
  public List<File> clusterGroups() {
    List<File> groups = new ArrayList<>(List.of(clusterGroup(blkio), clusterGroup(memory)));
    cpu.ifPresent(mount -> groups.add(clusterGroup(mount)));
    return groups;
  }
}
