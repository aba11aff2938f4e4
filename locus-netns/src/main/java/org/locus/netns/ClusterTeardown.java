package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes everything a netns cluster's {@link ResourceLedger} records, whoever made it and
 * however far it got: first every process in the cluster's namespaces and cgroups (SIGTERM,
 * then SIGKILL), then the resources in reverse order of creation. A resource already gone is
 * skipped; a loop device is detached only while it still serves the recorded image, and an
 * emulated HDD's zonedisk is stopped after the loop device over it. Safe to run twice.
 */
public final class ClusterTeardown {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterTeardown.class);
  private static final long GRACE_SECONDS = 15;

  private final ClusterLayout layout;
  private final ResourceLedger ledger;

  public ClusterTeardown(ClusterLayout layout) {
    this.layout = layout;
    this.ledger = new ResourceLedger(layout.ledgerFile());
  }

  /**
   * @return what could not be removed (empty when all is gone)
   */
  public List<String> run() throws IOException {
    List<ResourceLedger.Entry> entries = ledger.entries();
    stopProcesses(entries);
    List<String> failures = new ArrayList<>();
    List<ResourceLedger.Entry> reversed = new ArrayList<>(entries);
    Collections.reverse(reversed);
    for (ResourceLedger.Entry entry : reversed) {
      try {
        remove(entry);
      } catch (IOException e) {
        failures.add(entry.kind() + " " + entry.name() + ": " + e.getMessage());
      }
    }
    if (failures.isEmpty()) {
      ledger.clear();
      deletePidFiles();
    }
    return failures;
  }

  /** @return pids of every process in the recorded namespaces and node cgroups */
  public List<Long> processes() throws IOException {
    return processes(ledger.entries());
  }

  private List<Long> processes(List<ResourceLedger.Entry> entries) throws IOException {
    List<Long> pids = new ArrayList<>();
    for (ResourceLedger.Entry entry : entries) {
      if (entry.kind().equals("netns") && namespaceExists(entry.name())) {
        for (String line : HostCommand.attempt("ip", "netns", "pids", entry.name()).output()
            .split("\n")) {
          if (line.trim().matches("\\d+")) {
            pids.add(Long.parseLong(line.trim()));
          }
        }
      } else if (entry.kind().equals("cgroup")) {
        File procs = new File(entry.name(), "cgroup.procs");
        if (procs.isFile() && !CgroupMounts.isMountPoint(new File(entry.name()))) {
          for (String line : Files.readAllLines(procs.toPath())) {
            if (line.trim().matches("\\d+")) {
              pids.add(Long.parseLong(line.trim()));
            }
          }
        }
      }
    }
    return pids.stream().distinct().toList();
  }

  private void stopProcesses(List<ResourceLedger.Entry> entries) throws IOException {
    List<Long> pids = processes(entries);
    if (pids.isEmpty()) {
      return;
    }
    LOG.info("stopping {} processes of the cluster in {}", pids.size(), layout.root());
    pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
    while (System.nanoTime() < deadline && !processes(entries).isEmpty()) {
      pause(200);
    }
    // Tasks forked during the grace period are in the namespaces too: kill until none is left.
    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    List<Long> left = processes(entries);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
      pause(200);
      left = processes(entries);
    }
    if (!left.isEmpty()) {
      throw new IOException("processes " + left + " of the cluster in " + layout.root()
          + " survived SIGKILL for 30 s");
    }
  }

  /** Polls, 100 ms apart, for a detached loop device to be released. */
  private static final int LOOP_RELEASE_POLLS = 300;

  private void remove(ResourceLedger.Entry entry) throws IOException {
    switch (entry.kind()) {
      case "mount" -> {
        if (MountTable.isMounted(new File(entry.name()))) {
          HostCommand.Result result = HostCommand.attempt("umount", entry.name());
          if (result.exitCode() != 0 && MountTable.isMounted(new File(entry.name()))) {
            throw new IOException("umount failed: " + result.output().trim());
          }
        }
      }
      case "loop" -> {
        if (LoopDisk.backingFile(entry.name()).equals(entry.detail())) {
          HostCommand.run("losetup", "-d", entry.name());
          // A device still in use is only marked for release by losetup -d: the mount
          // namespaces of the killed daemons ('ip netns exec' gave each a copy of the node's
          // mounts) are torn down by the kernel after their last process is reaped, and until
          // then the file system on the device lives on. Wait for the release, so 'down'
          // returns with the device free and the image file's space really given back.
          for (int attempt = 0; attempt < LOOP_RELEASE_POLLS
              && LoopDisk.backingFile(entry.name()).equals(entry.detail()); attempt++) {
            pause(100);
          }
          if (LoopDisk.backingFile(entry.name()).equals(entry.detail())) {
            throw new IOException("loop device " + entry.name() + " still serves "
                + entry.detail() + " " + LOOP_RELEASE_POLLS / 10 + " s after losetup -d"
                + " (a process outside the cluster still uses its file system?)");
          }
        }
      }
      case "cgroup" -> {
        File dir = new File(entry.name());
        // An exiting task leaves its cgroup a moment after it is reaped.
        for (int attempt = 0; dir.isDirectory() && attempt < 50; attempt++) {
          if (!dir.delete()) {
            pause(100);
          }
        }
        if (dir.isDirectory()) {
          throw new IOException("cannot remove cgroup " + dir + " (still has tasks?)");
        }
      }
      case "link" -> {
        if (new File("/sys/class/net/" + entry.name()).exists()) {
          HostCommand.run("ip", "link", "del", entry.name());
        }
      }
      case "netns" -> {
        if (namespaceExists(entry.name())) {
          HostCommand.run("ip", "netns", "del", entry.name());
        }
      }
      case HddEmulator.KIND -> HddEmulator.stop(new File(entry.name()));
      case "file" -> Files.deleteIfExists(new File(entry.name()).toPath());
      default -> throw new IOException("unknown resource kind '" + entry.kind() + "' in "
          + ledger.file());
    }
  }

  private void deletePidFiles() {
    File[] files = new File(layout.root(), "daemons").listFiles((d, n) -> n.endsWith(".pid"));
    if (files != null) {
      for (File file : files) {
        if (!file.delete()) {
          LOG.warn("cannot delete {}", file);
        }
      }
    }
  }

  static boolean namespaceExists(String name) {
    return new File("/run/netns/" + name).exists();
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
