package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;

/**
 * A node's share of the host: its loop devices' reads and writes throttled, and what its
 * processes and their page cache may hold together capped, like a machine with that much RAM,
 * so a cold read reaches the throttled device. Every process of the node starts inside the
 * node's groups (see {@link DaemonLauncher}).
 *
 * <p>Two mechanisms behind this one interface, chosen by {@link #forHost}: cgroup v2
 * ({@code io.max}, {@code memory.max}: Debian 12 and every systemd host of today) and cgroup v1
 * ({@code blkio.throttle.*}, {@code memory.limit_in_bytes}: hybrid hosts such as this
 * project's build machine). Each cluster's groups sit in a group of their own,
 * {@code locus-ID}, below the hierarchy's root.
 */
public abstract class NodeCgroup {
  /** Where {@link #forHost} mounts a hierarchy the host does not mount (a chroot, say). */
  static final File OWN_MOUNTS = new File("/run/locus/cgroup");

  protected final ClusterLayout layout;
  protected final ResourceLedger ledger;

  protected NodeCgroup(ClusterLayout layout, ResourceLedger ledger) {
    this.layout = layout;
    this.ledger = ledger;
  }

  /**
   * The mechanism this host offers, mounting a hierarchy under {@link #OWN_MOUNTS} when none
   * with the controllers a node needs is mounted (needs root).
   *
   * @throws IOException naming what is missing when neither version can be had
   */
  public static NodeCgroup forHost(ClusterLayout layout, ResourceLedger ledger)
      throws IOException {
    Optional<NodeCgroup> found = find(layout, ledger, CgroupMounts.onThisHost());
    if (found.isPresent()) {
      return found.get();
    }
    mountOwn();
    return find(layout, ledger, CgroupMounts.onThisHost()).orElseThrow(() -> new IOException(
        "this host offers no cgroup v2 hierarchy with the io and memory controllers and no"
        + " cgroup v1 blkio and memory hierarchies, and mounting them under " + OWN_MOUNTS
        + " did not give them either"));
  }

  static Optional<NodeCgroup> find(ClusterLayout layout, ResourceLedger ledger,
      List<CgroupMounts.Hierarchy> mounted) {
    Optional<CgroupMounts.Hierarchy> unified =
        CgroupMounts.v2(mounted, CgroupV2Groups.CONTROLLERS);
    if (unified.isPresent()) {
      return Optional.of(new CgroupV2Groups(layout, ledger, unified.get().mountPoint()));
    }
    Optional<CgroupMounts.Hierarchy> blkio = CgroupMounts.v1(mounted, "blkio");
    Optional<CgroupMounts.Hierarchy> memory = CgroupMounts.v1(mounted, "memory");
    if (blkio.isPresent() && memory.isPresent()) {
      return Optional.of(new CgroupV1Groups(layout, ledger, blkio.get().mountPoint(),
          memory.get().mountPoint(),
          CgroupMounts.v1(mounted, "cpu").map(CgroupMounts.Hierarchy::mountPoint)));
    }
    return Optional.empty();
  }

  /**
   * Mounts cgroup v2 if that gives io and memory, else the missing v1 controllers, each at a
   * directory of its own under {@link #OWN_MOUNTS}. A v1 controller the host already mounts
   * elsewhere mounts as the same hierarchy, so groups made here are the host's groups.
   */
  private static void mountOwn() throws IOException {
    List<CgroupMounts.Hierarchy> mounted = CgroupMounts.onThisHost();
    File unified = new File(OWN_MOUNTS, "unified");
    if (CgroupMounts.v2(mounted, CgroupV2Groups.CONTROLLERS).isEmpty()
        && !CgroupMounts.isMountPoint(unified)) {
      Files.createDirectories(unified.toPath());
      HostCommand.Result result = HostCommand.attempt("mount", "-t", "cgroup2", "locus-cgroup2",
          unified.getPath());
      if (result.exitCode() == 0 && CgroupMounts.v2Controllers(unified)
          .containsAll(CgroupV2Groups.CONTROLLERS)) {
        return;
      }
      if (result.exitCode() == 0) {
        HostCommand.attempt("umount", unified.getPath());
      }
    }
    for (String controller : CgroupV1Groups.CONTROLLERS) {
      if (CgroupMounts.v1(mounted, controller).isEmpty()) {
        mountV1(controller, List.of(controller));
      }
    }
  }

  /**
   * Mounts the cgroup v1 hierarchy of {@code controller} at a directory of its own under
   * {@link #OWN_MOUNTS}, trying each option set in turn (a controller the host co-mounts with
   * another, such as {@code cpu,cpuacct}, mounts only with the same set).
   *
   * @return the mount point
   */
  static File mountV1(String controller, List<String> optionSets) throws IOException {
    File dir = new File(OWN_MOUNTS, controller);
    Files.createDirectories(dir.toPath());
    StringBuilder failures = new StringBuilder();
    for (String options : optionSets) {
      HostCommand.Result result = HostCommand.attempt("mount", "-t", "cgroup", "-o", options,
          "locus-" + controller, dir.getPath());
      if (result.exitCode() == 0) {
        return dir;
      }
      failures.append("; 'mount -t cgroup -o ").append(options).append("' failed: ")
          .append(result.output().trim());
    }
    throw new IOException("no cgroup hierarchy gives the '" + controller + "' controller here"
        + failures);
  }

  /** CFS bandwidth period of a node's CPU limit, in microseconds (the kernel's default). */
  public static final long CPU_PERIOD_MICROS = 100_000;

  /**
   * @return the CPU time a node may use per {@link #CPU_PERIOD_MICROS}, in microseconds, for
   *     {@code cpus} cores (at least the kernel's minimum quota, 1 ms)
   */
  public static long cpuQuotaMicros(double cpus) {
    if (!(cpus > 0) || Double.isInfinite(cpus)) {
      throw new IllegalArgumentException("a CPU limit must be a positive number of cores, not "
          + cpus);
    }
    return Math.max(1000, Math.round(cpus * CPU_PERIOD_MICROS));
  }

  /** @return cgroup version of this mechanism, 1 or 2 */
  public abstract int version();

  /** Creates the node's groups with a memory limit ({@code 0}: none). */
  public abstract void create(String node, long memoryBytes) throws IOException;

  /** Throttles one device of the node ({@code 0}: unlimited in that direction). */
  public abstract void throttle(String node, String majorMinor, long readBps, long writeBps)
      throws IOException;

  /**
   * Limits the CPU time of the node's processes together to {@code cpus} cores
   * ({@link #cpuQuotaMicros} per {@link #CPU_PERIOD_MICROS}): a weak node on a strong host.
   * Call after {@link #create} and before any process of the node starts.
   *
   * @throws IOException naming the hierarchy when this host's cgroups offer no CPU controller
   */
  public abstract void limitCpu(String node, double cpus) throws IOException;

  /** @return the {@code cgroup.procs} files a process of the node is written into */
  public abstract List<File> procsFiles(String node);

  /** @return this cluster's own group in each hierarchy it uses (existing or not) */
  public abstract List<File> clusterGroups();

  /**
   * @return how many processes of the node the kernel killed for going over the node's memory
   *     limit since its group was made (0 when the group or the kernel's counter is missing)
   */
  public abstract long oomKills(String node);

  /**
   * Reads the {@code oom_kill} line of a memory group's counters ({@code memory.events} in v2,
   * {@code memory.oom_control} in v1: both print {@code oom_kill N} on a line of its own).
   */
  protected static long oomKillCount(File counters) {
    try {
      for (String line : Files.readAllLines(counters.toPath())) {
        String[] words = line.trim().split("\\s+");
        if (words.length == 2 && words[0].equals("oom_kill")) {
          return Long.parseLong(words[1]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }

  /** @return this cluster's own group below a hierarchy's mount point */
  protected File clusterGroup(File mountPoint) {
    return new File(mountPoint, "locus-" + layout.id());
  }

  /** Creates a group directory, recording it in the ledger first. */
  protected void createGroup(File dir) throws IOException {
    if (dir.isDirectory()) {
      return;
    }
    ledger.record("cgroup", dir.getPath(), null);
    if (!dir.mkdir() && !dir.isDirectory()) {
      throw new IOException("cannot create cgroup " + dir);
    }
  }

  protected static void write(File file, String value) throws IOException {
    try {
      Files.write(file.toPath(), value.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IOException("cannot write '" + value + "' to " + file + ": " + e.getMessage(),
          e);
    }
  }
}
