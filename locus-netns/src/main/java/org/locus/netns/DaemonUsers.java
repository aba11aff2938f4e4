package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The accounts a netns cluster's daemons run as with {@code --daemon-users} (issue 47, as
 * Hadoop's own deployments do): HDFS's as {@code hdfs}, YARN's as {@code yarn}, the JobHistory
 * server as {@code mapred}, all in group {@code hadoop} ({@code scripts/setup} creates them).
 * The launcher still builds each node's namespace and cgroups as root; the daemon's last step
 * before {@code java} is {@code setpriv}, which sets its real and effective uid and gid and its
 * groups and leaves it no capability. The directories each account writes are handed to it
 * here; everything else (configuration, the bundle, the node directories above the mounts)
 * stays root's, because the privileged helper refuses mount points below a directory that
 * anyone but root may write.
 */
public final class DaemonUsers {
  public static final String HDFS = "hdfs";
  public static final String YARN = "yarn";
  public static final String MAPRED = "mapred";
  /** The group of the three accounts: the shared temporary directories are its. */
  public static final String GROUP = "hadoop";
  /** The HDFS superuser group: the host's root, who runs the cluster tools, is in it. */
  public static final String SUPERUSER_GROUP = "root";

  private DaemonUsers() {
  }

  /**
   * Refuses, before anything is created, a host without the accounts or a cluster directory
   * the helper would refuse.
   *
   * @throws IllegalStateException with a one-line reason
   */
  static void check(File clusterRoot) throws IOException {
    for (String user : List.of(HDFS, YARN, MAPRED)) {
      if (HostCommand.attempt("id", "-u", user).exitCode() != 0) {
        throw new IllegalStateException("--daemon-users needs the account '" + user
            + "' (group " + GROUP + "); scripts/setup creates it, or: useradd --system --gid "
            + GROUP + " --no-create-home --shell /usr/sbin/nologin " + user);
      }
    }
    String unsafe = unsafeDirectory(clusterRoot.getAbsoluteFile().toPath());
    if (unsafe != null) {
      throw new IllegalStateException("--daemon-users: " + unsafe + ", and the privileged"
          + " helper refuses mount points below such a directory; choose a --dir whose every"
          + " directory is root's and writable by root only, e.g. under /var/lib/locus-netns");
    }
  }

  /** @return why a directory on the way to {@code dir} (itself included) is unsafe, or null */
  static String unsafeDirectory(Path dir) throws IOException {
    List<Path> chain = new ArrayList<>();
    for (Path p = dir; p != null; p = p.getParent()) {
      chain.add(0, p);
    }
    for (Path p : chain) {
      if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
        continue;          // made by up, as root, 0755
      }
      PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
      if (a.isSymbolicLink()) {
        return p + " is a symbolic link";
      }
      if (!a.owner().getName().equals("root")) {
        return p + " belongs to " + a.owner().getName();
      }
      if (a.permissions().contains(PosixFilePermission.GROUP_WRITE)
          || a.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
        return p + " is writable by its group or by others";
      }
    }
    return null;
  }

  /** @return the argument vector that runs {@code command} as {@code user}, group hadoop */
  static List<String> as(String user, List<String> command) {
    List<String> argv = new ArrayList<>(List.of("setpriv", "--reuid=" + user,
        "--regid=" + GROUP, "--init-groups", "--"));
    argv.addAll(command);
    return argv;
  }

  /** Gives {@code dir} (made if missing) and everything in it to {@code user}. */
  static void own(File dir, String user) throws IOException {
    Files.createDirectories(dir.toPath());
    HostCommand.run("chown", "-R", user + ":" + GROUP, dir.getPath());
  }

  /**
   * Makes {@code dir} a temporary directory every daemon account may write (as {@code /tmp}:
   * mode 1777, so none removes another's files).
   */
  static void shared(File dir) throws IOException {
    Files.createDirectories(dir.toPath());
    HostCommand.run("chown", "root:" + GROUP, dir.getPath());
    HostCommand.run("chmod", "1777", dir.getPath());
  }

  /**
   * Prepares the file system for daemons that are not its superuser: {@code /tmp} (where
   * MapReduce stages jobs and the JobHistory server keeps its directories) mode 1777 in group
   * hadoop, so the history files the job's ApplicationMaster writes (0770) are readable by the
   * JobHistory server's {@code mapred}; {@code /user/root} for the host's clients.
   */
  static void initializeFileSystem(FileSystem fs) throws IOException {
    org.apache.hadoop.fs.Path tmp = new org.apache.hadoop.fs.Path("/tmp");
    fs.mkdirs(tmp);
    fs.setOwner(tmp, HDFS, GROUP);
    fs.setPermission(tmp, new FsPermission((short) 01777));
    org.apache.hadoop.fs.Path home = new org.apache.hadoop.fs.Path("/user/root");
    fs.mkdirs(home);
    fs.setOwner(home, "root", GROUP);
  }
}
