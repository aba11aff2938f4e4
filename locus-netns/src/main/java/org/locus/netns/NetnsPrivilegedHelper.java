package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * The privileged helper of a netns cluster whose NodeManagers run as {@code yarn}
 * ({@code --daemon-users} with the zone hook): {@code up} does what an operator does on a real
 * node (docs/security.md) — installs {@code locus-priv} set-user-ID root, runnable by group
 * {@code hadoop} only, and writes its root-owned configuration listing this cluster's
 * {@code nmlocal} devices and mount points, {@code yarn} as the only caller of the zone verbs
 * and {@code hdfs} of the hdparm ones. The binary is {@code locus-priv-netns}, built to read
 * {@link #CONFIG}, so an operator's own {@code /etc/locus/locus-priv.cfg} is never touched;
 * both files are in the cluster's ledger, so {@code down} removes them. One such cluster per
 * host: the configuration names its cluster, and a second cluster is refused while the first
 * is up.
 */
final class NetnsPrivilegedHelper {
  static final File DIR = new File("/var/lib/locus-netns");
  static final File BINARY = new File(DIR, "locus-priv");
  static final File CONFIG = new File(DIR, "locus-priv.cfg");
  private static final String OWNER_LINE = "# netns cluster ";

  /** A node's disk the zone hook acts on. */
  record ZoneDisk(String device, File mountPoint) {
  }

  private final ClusterLayout layout;
  private final ResourceLedger ledger;

  NetnsPrivilegedHelper(ClusterLayout layout, ResourceLedger ledger) {
    this.layout = layout;
    this.ledger = ledger;
  }

  /** @return the zonectl journal directory the helper gives zonectl: the cluster's own */
  static File stateDir(ClusterLayout layout) {
    return new File(layout.root(), "zonectl");
  }

  /**
   * Refuses a host where another cluster's helper configuration is in place.
   *
   * @throws IllegalStateException naming that cluster
   */
  static void check(ClusterLayout layout) throws IOException {
    if (!CONFIG.isFile()) {
      return;
    }
    String owner = "";
    for (String line : Files.readAllLines(CONFIG.toPath(), StandardCharsets.UTF_8)) {
      if (line.startsWith(OWNER_LINE)) {
        owner = line.substring(OWNER_LINE.length()).trim();
      }
    }
    File ownerLedger = new ClusterLayout(new File(owner)).ledgerFile();
    if (!owner.isEmpty() && !new ResourceLedger(ownerLedger).isEmpty()) {
      throw new IllegalStateException("--daemon-users: the netns cluster in " + owner
          + " uses the helper configuration " + CONFIG + "; run 'locus cluster down --dir "
          + owner + "' first (one such cluster per host)");
    }
  }

  /** Installs the helper and writes its configuration for {@code disks}. */
  void install(List<ZoneDisk> disks) throws IOException {
    File built = new File(layout.distDir(), "bin/locus-priv-netns");
    if (!built.canExecute()) {
      throw new IOException("the bundle has no " + built + "; build locus-priv (make -C"
          + " locus-priv) and run up again");
    }
    if (!DIR.isDirectory()) {
      Files.createDirectories(DIR.toPath());
      HostCommand.run("chmod", "0755", DIR.getPath());
    }
    Files.createDirectories(stateDir(layout).toPath());
    List<String> devices = new ArrayList<>();
    List<String> mounts = new ArrayList<>();
    List<String> lines = new ArrayList<>(List.of(OWNER_LINE + layout.root().getAbsolutePath(),
        "allowed.users=" + DaemonUsers.HDFS + "," + DaemonUsers.YARN,
        "banned.users=root,bin",
        "min.user.id=100",
        "hdparm.users=" + DaemonUsers.HDFS,
        "zone.users=" + DaemonUsers.YARN,
        "zonectl.path=" + new File(layout.distDir(), "bin/zonectl").getAbsolutePath(),
        "zonectl.state-dir=" + stateDir(layout).getAbsolutePath()));
    for (ZoneDisk disk : disks) {
      devices.add(disk.device());
      mounts.add(disk.mountPoint().getAbsolutePath());
      lines.add("mount=" + disk.device() + " " + disk.mountPoint().getAbsolutePath() + " ext4");
    }
    lines.add("zonectl.devices=" + String.join(",", devices));
    lines.add("zonectl.mounts=" + String.join(",", mounts));
    ledger.record("file", CONFIG.getPath(), null);
    File tmp = new File(DIR, CONFIG.getName() + ".tmp");
    Files.write(tmp.toPath(), (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    HostCommand.run("chown", "root:root", tmp.getPath());
    HostCommand.run("chmod", "0644", tmp.getPath());
    Files.move(tmp.toPath(), CONFIG.toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    ledger.record("file", BINARY.getPath(), null);
    HostCommand.run("install", "-o", "root", "-g", DaemonUsers.GROUP, "-m", "4750",
        built.getPath(), BINARY.getPath());
  }
}
