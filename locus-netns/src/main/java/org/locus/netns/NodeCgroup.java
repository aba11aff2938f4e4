package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * A node's share of the host, in cgroup v1 (what this host mounts): {@code blkio} throttles
 * each of its loop devices' reads and writes; {@code memory} caps what its processes and their
 * page cache may hold together, like a machine with that much RAM, so a cold read reaches the
 * throttled device. Every process of the node starts inside both groups (see
 * {@link DaemonLauncher}).
 *
 * <p>cgroup v1 charges buffered writes to the flusher thread, not to the writer: the write
 * throttle binds direct and synchronous writes (HDFS's block files are written buffered, then
 * flushed on close).
 */
public final class NodeCgroup {
  static final List<String> CONTROLLERS = List.of("blkio", "memory");

  private final ClusterLayout layout;
  private final ResourceLedger ledger;

  public NodeCgroup(ClusterLayout layout, ResourceLedger ledger) {
    this.layout = layout;
    this.ledger = ledger;
  }

  /** @return whether this host has the cgroup v1 controllers a node needs */
  public static boolean available() {
    return CONTROLLERS.stream()
        .allMatch(c -> new File("/sys/fs/cgroup/" + c + "/cgroup.procs").isFile());
  }

  /** Creates the node's groups with a memory limit ({@code 0}: none). */
  public void create(String node, long memoryBytes) throws IOException {
    for (String controller : CONTROLLERS) {
      File root = layout.cgroupRoot(controller);
      if (!root.isDirectory()) {
        ledger.record("cgroup", root.getPath(), null);
        mkdir(root);
      }
      File group = layout.cgroup(controller, node);
      ledger.record("cgroup", group.getPath(), null);
      mkdir(group);
    }
    if (memoryBytes > 0) {
      write(new File(layout.cgroup("memory", node), "memory.limit_in_bytes"),
          Long.toString(memoryBytes));
    }
  }

  /** Throttles one device of the node ({@code 0}: unlimited in that direction). */
  public void throttle(String node, String majorMinor, long readBps, long writeBps)
      throws IOException {
    File group = layout.cgroup("blkio", node);
    if (readBps > 0) {
      write(new File(group, "blkio.throttle.read_bps_device"), majorMinor + " " + readBps);
    }
    if (writeBps > 0) {
      write(new File(group, "blkio.throttle.write_bps_device"), majorMinor + " " + writeBps);
    }
  }

  /** @return the {@code cgroup.procs} files a node's process joins, one per controller */
  public List<File> procsFiles(String node) {
    return CONTROLLERS.stream()
        .map(c -> new File(layout.cgroup(c, node), "cgroup.procs")).toList();
  }

  private static void mkdir(File dir) throws IOException {
    if (!dir.mkdir() && !dir.isDirectory()) {
      throw new IOException("cannot create cgroup " + dir);
    }
  }

  private static void write(File file, String value) throws IOException {
    Files.write(file.toPath(), value.getBytes(StandardCharsets.UTF_8));
  }
}
