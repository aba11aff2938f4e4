package org.locus.energy.datanode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.energy.EnergyConfigKeys;

/**
 * The channel through which backups are woken from outside their DataNode: {@code locus energy
 * wake}, a power manager whose primary volume failed, and the NameNode's
 * {@code org.locus.energy.namenode.NodeLossWakeNotifier}. A request is a small HDFS file
 * {@code <dir>/<millis>-<target>} under {@code locus.energy.wake.request.dir}:
 * <ul>
 *   <li>target {@code all}: every backup of every DataNode;</li>
 *   <li>target a host name: every backup of that DataNode;</li>
 *   <li>target {@value #STORAGES}: the backup volumes whose storage IDs the file lists.</li>
 * </ul>
 * The file's first line is the reason (recorded as the disks' wake reason); for
 * {@value #STORAGES} each further line is one storage ID. A request is written under a hidden
 * name and renamed into place, so pollers never see it half-written; the directory is
 * {@code HOT} (every replica on a primary), so filing a request wakes no backup. Each power manager polls the
 * directory and acts once on each request made after it started. HDFS needs no new port or
 * RPC; the poll costs one listing per second per DataNode, plus one small read per request.
 */
public final class WakeRequests {
  /** Host part of a request that wakes every node. */
  public static final String ALL = "all";
  /** Target of a request that names backup volumes by storage ID. */
  public static final String STORAGES = "storages";

  /**
   * One request new to this node.
   *
   * @param reason why the backups are to be woken
   * @param storageIds the volumes to wake; empty = every backup of this node
   */
  public record Request(String reason, Set<String> storageIds) {
  }

  private final Path dir;
  private final Set<String> seen = new HashSet<>();
  private final long startMillis;

  WakeRequests(String dir, long startMillis) {
    this.dir = new Path(dir);
    this.startMillis = startMillis;
  }

  /** @return the request directory the keys name */
  public static Path directory(Configuration conf) {
    return new Path(conf.get(EnergyConfigKeys.WAKE_REQUEST_DIR,
        EnergyConfigKeys.WAKE_REQUEST_DIR_DEFAULT));
  }

  /** Files a wake request for {@code host} (or {@link #ALL}); returns the request's path. */
  public static Path request(FileSystem fs, Configuration conf, String host, String reason)
      throws IOException {
    return write(fs, conf, host, reason, List.of());
  }

  /** Files a wake request for the backup volumes with these storage IDs. */
  public static Path requestStorages(FileSystem fs, Configuration conf,
      Collection<String> storageIds, String reason) throws IOException {
    return write(fs, conf, STORAGES, reason, storageIds);
  }

  private static Path write(FileSystem fs, Configuration conf, String target, String reason,
      Collection<String> lines) throws IOException {
    Path dir = directory(conf);
    if (!fs.exists(dir)) {
      fs.mkdirs(dir);
      // all replicas on primaries: a request must not itself wake a sleeping backup
      fs.setStoragePolicy(dir, "HOT");
    }
    String name = System.currentTimeMillis() + "-" + target;
    // written under a name no poller accepts, then renamed: a poller never reads it half-written
    Path partial = new Path(dir, "." + name + ".partial");
    try (Writer out = new OutputStreamWriter(fs.create(partial, false),
        StandardCharsets.UTF_8)) {
      out.write(reason.replace('\n', ' ') + "\n");
      for (String line : lines) {
        out.write(line + "\n");
      }
    }
    Path request = new Path(dir, name);
    if (!fs.rename(partial, request)) {
      throw new IOException("cannot rename wake request " + partial + " to " + request);
    }
    return request;
  }

  /** @return the requests new to this node that name {@code host}, all nodes, or storages */
  List<Request> pending(FileSystem fs, String host) throws IOException {
    List<Request> requests = new ArrayList<>();
    if (!fs.exists(dir)) {
      return requests;
    }
    for (FileStatus status : fs.listStatus(dir)) {
      String name = status.getPath().getName();
      int dash = name.indexOf('-');
      if (dash < 0 || name.startsWith(".") || !seen.add(name)) {
        continue;
      }
      long at;
      try {
        at = Long.parseLong(name.substring(0, dash));
      } catch (NumberFormatException e) {
        continue;
      }
      String target = name.substring(dash + 1);
      if (at < startMillis
          || !(target.equals(ALL) || target.equals(host) || target.equals(STORAGES))) {
        continue;
      }
      List<String> lines = read(fs, status.getPath());
      String reason = lines.isEmpty() || lines.get(0).isEmpty()
          ? "requested with locus energy wake" : lines.get(0);
      Set<String> storages = target.equals(STORAGES)
          ? Set.copyOf(lines.subList(Math.min(1, lines.size()), lines.size())) : Set.of();
      requests.add(new Request(reason, storages));
    }
    return requests;
  }

  private static List<String> read(FileSystem fs, Path file) throws IOException {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      return in.lines().filter(l -> !l.isBlank()).toList();
    }
  }
}
