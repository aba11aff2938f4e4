package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Bytes written to a netns cluster's node devices, from the kernel's own counters
 * ({@code /sys/dev/block/MAJ:MIN/stat}, field 7: sectors written, 512 bytes each), by device
 * class: the devices emulating SSDs (SSD volumes, and {@code nmlocal} where intermediate data is
 * on SSD) and those emulating HDDs (DISK volumes, {@code nmlocal} otherwise). The
 * devices are those the cluster's state lists per node ({@code nodeK.disks = vol0=7:3 ...}).
 */
public final class NodeDeviceWrites {
  private NodeDeviceWrites() {
  }

  /**
   * @param state the cluster's published state
   * @param volumes the DataNode volumes' storage types, in order ({@code vol0}, {@code vol1}...)
   * @param intermediateOnSsd whether the {@code nmlocal} device emulates an SSD
   * @return "ssd" and "hdd" → bytes written so far
   */
  public static Map<String, Long> of(Properties state, List<String> volumes,
      boolean intermediateOnSsd) throws IOException {
    Map<String, Long> bytes = new TreeMap<>();
    bytes.put("ssd", 0L);
    bytes.put("hdd", 0L);
    int nodes = Integer.parseInt(state.getProperty("nodes", "0"));
    for (int k = 1; k <= nodes; k++) {
      String disks = state.getProperty("node" + k + ".disks", "");
      for (String disk : disks.split(" ")) {
        int eq = disk.indexOf('=');
        if (eq < 0) {
          continue;
        }
        String name = disk.substring(0, eq);
        boolean ssd = name.startsWith("vol")
            ? "SSD".equals(volumes.get(Integer.parseInt(name.substring(3))))
            : intermediateOnSsd;
        bytes.merge(ssd ? "ssd" : "hdd", sectorsWritten(disk.substring(eq + 1)) * 512,
            Long::sum);
      }
    }
    return bytes;
  }

  /**
   * A loop device's counters run from its creation, across every image attached to it since
   * the host booted, so only differences mean anything. Each device's file system is synced
   * first ({@code sync -f}), so data still in the page cache counts as written.
   *
   * @return the bytes written so far to the running netns cluster's devices in {@code dir}:
   *     "ssd" for its SSD volumes' devices, "hdd" for every other device
   * @throws IOException when {@code dir} holds no running netns cluster
   */
  public static Map<String, Long> now(ClusterDirectory dir) throws IOException {
    Properties state = dir.readState();
    if (!"netns".equals(state.getProperty("kind")) || !"up".equals(state.getProperty("state"))) {
      throw new IOException("no running netns cluster in " + dir.root());
    }
    syncFileSystems(dir, state);
    return of(state, NetnsSpecFile.read(NetnsSpecFile.in(dir)).volumes(), false);
  }

  /**
   * Syncs the file system of every device of the cluster ({@code sync -f}), so what the page
   * cache still holds reaches the devices and their counters.
   */
  public static void syncFileSystems(ClusterDirectory dir, Properties state) throws IOException {
    ClusterLayout layout = new ClusterLayout(dir.root());
    int nodes = Integer.parseInt(state.getProperty("nodes", "0"));
    for (int k = 1; k <= nodes; k++) {
      for (String disk : state.getProperty("node" + k + ".disks", "").split(" ")) {
        int eq = disk.indexOf('=');
        if (eq > 0) {
          HostCommand.run("sync", "-f", layout.mountPoint("node" + k, disk.substring(0, eq))
              .getPath());
        }
      }
    }
  }

  private static long sectorsWritten(String majorMinor) throws IOException {
    File stat = new File("/sys/dev/block/" + majorMinor + "/stat");
    String[] fields = Files.readString(stat.toPath()).trim().split("\\s+");
    if (fields.length < 7) {
      throw new IOException(stat + " has " + fields.length + " fields, 7 or more expected");
    }
    return Long.parseLong(fields[6]);
  }
}
