package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.util.List;

/**
 * A node's groups in cgroup v1: one in the {@code blkio} hierarchy
 * ({@code blkio.throttle.read_bps_device}, {@code write_bps_device}) and one in the
 * {@code memory} hierarchy ({@code memory.limit_in_bytes}).
 *
 * <p>cgroup v1 charges buffered writes to the flusher thread, not to the writer: the write
 * throttle binds direct and synchronous writes only (HDFS writes block files buffered and
 * flushes them on close).
 */
final class CgroupV1Groups extends NodeCgroup {
  static final List<String> CONTROLLERS = List.of("blkio", "memory");

  private final File blkio;
  private final File memory;

  CgroupV1Groups(ClusterLayout layout, ResourceLedger ledger, File blkio, File memory) {
    super(layout, ledger);
    this.blkio = blkio;
    this.memory = memory;
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
  public List<File> procsFiles(String node) {
    return List.of(new File(new File(clusterGroup(blkio), node), "cgroup.procs"),
        new File(new File(clusterGroup(memory), node), "cgroup.procs"));
  }

  @Override
  public List<File> clusterGroups() {
    return List.of(clusterGroup(blkio), clusterGroup(memory));
  }
}
