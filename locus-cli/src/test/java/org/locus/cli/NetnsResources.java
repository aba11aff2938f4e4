package org.locus.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.locus.netns.ClusterLayout;
import org.locus.netns.DaemonRole;
import org.locus.netns.DaemonUsers;
import org.locus.netns.HostCommand;
import org.locus.netns.NodeCgroup;
import org.locus.netns.ResourceLedger;

/**
 * Lists, by kind, the host resources a netns cluster in one directory can leave behind:
 * namespaces, root-namespace links, loop devices, mounts, cgroups and processes. Read straight
 * from the host, not from the cluster's own ledger.
 */
final class NetnsResources {
  /** Runs {@code locus cluster up --netns --dir DIR OPTIONS...} and requires it to succeed. */
  static void up(File dir, String... options) {
    List<String> args = new ArrayList<>(List.of("cluster", "up", "--netns", "--dir",
        dir.getPath()));
    args.addAll(List.of(options));
    CliRun run = CliRun.inProcess(args.toArray(new String[0]));
    org.junit.jupiter.api.Assertions.assertEquals(0, run.exitCode(), run.toString());
  }

  /**
   * Skips the calling test class where netns clusters cannot run (not root), takes down what an
   * earlier run left of the cluster in {@code dir}, and empties {@code work} (which holds it).
   */
  static void freshWorkDirectory(File work, File dir) throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(root(), "netns clusters need root");
    down(dir);
    org.apache.hadoop.fs.FileUtil.fullyDelete(dir);
    org.apache.hadoop.fs.FileUtil.fullyDelete(work);
    if (!work.mkdirs()) {
      throw new IOException("cannot create " + work);
    }
  }

  /**
   * @return a cluster directory {@code --daemon-users} accepts: below directories that only
   *     root may write ({@code /var/lib/locus-netns/test/NAME}), because the privileged helper
   *     refuses mount points below any other
   */
  static File rootOnlyClusterDirectory(String name) throws IOException {
    File parent = new File("/var/lib/locus-netns/test");
    if (!root()) {
      return new File(parent, name);      // the test class skips itself (freshWorkDirectory)
    }
    Files.createDirectories(parent.toPath());
    for (File d : List.of(parent.getParentFile(), parent)) {
      Files.setPosixFilePermissions(d.toPath(),
          java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return new File(parent, name);
  }

  /**
   * Asserts that every daemon of the cluster runs as its role's account ({@code hdfs},
   * {@code yarn}, {@code mapred}): real, effective, saved and file-system uid and gid, read from
   * {@code /proc/PID/status}, and no capability left.
   *
   * @return how many daemons were checked
   */
  static int assertDaemonsRunAsTheirAccounts(ClusterLayout layout) throws IOException {
    File[] pids = new File(layout.root(), "daemons").listFiles((d, n) -> n.endsWith(".pid"));
    org.junit.jupiter.api.Assertions.assertNotNull(pids, "no daemons directory in " + layout.root());
    String group = HostCommand.run("getent", "group", DaemonUsers.GROUP).split(":")[2];
    int checked = 0;
    for (File pidFile : pids) {
      String name = pidFile.getName().replace(".pid", "");
      DaemonRole role = DaemonRole.of(name.substring(name.indexOf('-') + 1));
      String pid = Files.readString(pidFile.toPath()).trim();
      File status = new File("/proc/" + pid + "/status");
      org.junit.jupiter.api.Assertions.assertTrue(status.isFile(), name + " (pid " + pid
          + ") is not running");
      String uid = HostCommand.run("id", "-u", role.user()).trim();
      String text = Files.readString(status.toPath(), StandardCharsets.UTF_8);
      org.junit.jupiter.api.Assertions.assertEquals(String.join("\t", uid, uid, uid, uid),
          field(text, "Uid"), name + " runs as " + role.user());
      org.junit.jupiter.api.Assertions.assertEquals(String.join("\t", group, group, group,
          group), field(text, "Gid"), name + "'s group is " + DaemonUsers.GROUP);
      org.junit.jupiter.api.Assertions.assertEquals("0000000000000000", field(text, "CapEff"),
          name + " keeps no capability");
      org.junit.jupiter.api.Assertions.assertTrue(
          Files.readString(new File("/proc/" + pid + "/cmdline").toPath())
              .contains(role.mainClass()), name + " (pid " + pid + ") is the daemon itself");
      checked++;
    }
    return checked;
  }

  private static String field(String status, String name) {
    for (String line : status.split("\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    throw new AssertionError("no " + name + " in /proc status");
  }

  /** Runs {@code locus cluster down --dir DIR}, whatever is left of the cluster. */
  static void down(File dir) {
    CliRun.inProcess("cluster", "down", "--dir", dir.getPath());
  }

  private NetnsResources() {
  }

  static Map<String, List<String>> of(File dir) throws IOException {
    ClusterLayout layout = new ClusterLayout(dir);
    String root = layout.root().getPath();
    Map<String, List<String>> kinds = new TreeMap<>();
    kinds.put("namespace", HostCommand.run("ip", "netns", "list").lines()
        .filter(l -> l.startsWith("locus-" + layout.id() + "-")).toList());
    String[] links = new File("/sys/class/net").list();
    kinds.put("link", links == null ? List.of() : List.of(links).stream()
        .filter(l -> l.startsWith("lc" + layout.id())).toList());
    kinds.put("loop", HostCommand.run("losetup", "-a").lines()
        .filter(l -> l.contains(root + "/")).toList());
    kinds.put("mount", Files.readAllLines(new File("/proc/self/mounts").toPath()).stream()
        .filter(l -> l.contains(" " + root + "/")).toList());
    List<String> cgroups = new ArrayList<>();
    for (File group : NodeCgroup.forHost(layout, new ResourceLedger(new File(dir,
        "no-such-ledger"))).clusterGroups()) {
      if (group.exists()) {
        cgroups.add(group.getPath());
      }
    }
    kinds.put("cgroup", cgroups);
    List<String> processes = new ArrayList<>();
    File[] procs = new File("/proc").listFiles((d, n) -> n.matches("\\d+"));
    for (File proc : procs == null ? new File[0] : procs) {
      try {
        String cmdline = new String(Files.readAllBytes(new File(proc, "cmdline").toPath()),
            StandardCharsets.UTF_8).replace('\0', ' ');
        if (cmdline.contains(root + "/") && !proc.getName().equals(
            Long.toString(ProcessHandle.current().pid()))) {
          processes.add(proc.getName() + " " + cmdline.substring(0,
              Math.min(120, cmdline.length())));
        }
      } catch (IOException e) {
        // the process exited while we listed it
      }
    }
    kinds.put("process", processes);
    return kinds;
  }

  /** @return whether every kind is empty */
  static boolean none(Map<String, List<String>> kinds) {
    return kinds.values().stream().allMatch(List::isEmpty);
  }

  /** @return whether the tests run as root (namespaces, loop devices and cgroups need it) */
  static boolean root() throws IOException {
    return HostCommand.run("id", "-u").trim().equals("0");
  }
}
