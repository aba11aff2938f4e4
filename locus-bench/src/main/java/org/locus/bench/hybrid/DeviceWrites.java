package org.locus.bench.hybrid;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
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
final class DeviceWrites {
  private DeviceWrites() {
  }

  /**
   * @param state the cluster's published state
   * @param volumes the DataNode volumes' storage types, in order ({@code vol0}, {@code vol1}...)
   * @param intermediateOnSsd whether the {@code nmlocal} device emulates an SSD
   * @return "ssd" and "hdd" → bytes written so far
   */
  static Map<String, Long> of(Properties state, java.util.List<String> volumes,
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

  private static long sectorsWritten(String majorMinor) throws IOException {
    File stat = new File("/sys/dev/block/" + majorMinor + "/stat");
    String[] fields = Files.readString(stat.toPath()).trim().split("\\s+");
    if (fields.length < 7) {
      throw new IOException(stat + " has " + fields.length + " fields, 7 or more expected");
    }
    return Long.parseLong(fields[6]);
  }
}
