package org.locus.energy.datanode;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.energy.EnergyConfigKeys;

/**
 * The channel of {@code locus energy wake}: a request is an empty HDFS file
 * {@code <dir>/<millis>-<host>} (host {@code all} for every node) under
 * {@code locus.energy.wake.request.dir}. Each DataNode's power manager polls the directory and
 * acts once on each request for its host made after it started. Using HDFS needs no new port or
 * RPC; the poll costs one listing per second per DataNode.
 */
public final class WakeRequests {
  /** Host part of a request that wakes every node. */
  public static final String ALL = "all";

  private final Path dir;
  private final Set<String> seen = new HashSet<>();
  private final long startMillis;

  WakeRequests(Configuration conf, long startMillis) {
    this.dir = directory(conf);
    this.startMillis = startMillis;
  }

  /** @return the request directory the keys name */
  public static Path directory(Configuration conf) {
    return new Path(conf.get(EnergyConfigKeys.WAKE_REQUEST_DIR,
        EnergyConfigKeys.WAKE_REQUEST_DIR_DEFAULT));
  }

  /** Files a wake request for {@code host} (or {@link #ALL}); returns the request's path. */
  public static Path request(FileSystem fs, Configuration conf, String host) throws IOException {
    Path request = new Path(directory(conf), System.currentTimeMillis() + "-" + host);
    fs.create(request, false).close();
    return request;
  }

  /** @return true when a request new to this node names {@code host} or all nodes */
  boolean pending(FileSystem fs, String host) throws IOException {
    if (!fs.exists(dir)) {
      return false;
    }
    boolean wake = false;
    for (FileStatus status : fs.listStatus(dir)) {
      String name = status.getPath().getName();
      int dash = name.indexOf('-');
      if (dash < 0 || !seen.add(name)) {
        continue;
      }
      long at;
      try {
        at = Long.parseLong(name.substring(0, dash));
      } catch (NumberFormatException e) {
        continue;
      }
      String target = name.substring(dash + 1);
      if (at >= startMillis && (target.equals(ALL) || target.equals(host))) {
        wake = true;
      }
    }
    return wake;
  }
}
