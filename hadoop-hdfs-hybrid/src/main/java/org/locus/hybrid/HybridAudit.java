package org.locus.hybrid;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;

/**
 * Where the hybrid profile's data actually lives, read from HDFS itself: for each audited path
 * the bytes of its replicas per storage type (block locations carry each replica's type) and
 * how many blocks break the path's intended layout, and per storage type the capacity and
 * bytes the DataNodes report.
 */
public final class HybridAudit {
  /**
   * One audited path.
   *
   * @param ssd whether the profile means it for SSD
   * @param policy its effective storage policy
   * @param replicaBytes bytes of its replicas per storage type
   * @param blocksOffLayout blocks not laid out as intended: with ALL_SSD a replica off SSD,
   *     with ONE_SSD no replica on SSD, outside the SSD paths a replica on SSD
   */
  public record PathUsage(Path path, boolean ssd, String policy, long files, long bytes,
      long blocks, Map<StorageType, Long> replicaBytes, long blocksOffLayout) {
    public long replicaBytes(StorageType type) {
      return replicaBytes.getOrDefault(type, 0L);
    }
  }

  /** Capacity and used bytes of one storage type over the live DataNodes. */
  public record StorageUse(StorageType type, int volumes, long capacity, long used) {
  }

  private final DistributedFileSystem fs;
  private final HybridSettings settings;

  public HybridAudit(DistributedFileSystem fs, HybridSettings settings) {
    this.fs = fs;
    this.settings = settings;
  }

  /**
   * @param path an HDFS path; SSD paths are judged by the SSD policy, others must keep their
   *     replicas off SSD
   * @throws FileNotFoundException naming the path when it does not exist
   */
  public PathUsage usage(Path path) throws IOException {
    if (!fs.exists(path)) {
      throw new FileNotFoundException(path + " does not exist in " + fs.getUri());
    }
    boolean ssd = settings.onSsd(path);
    Map<StorageType, Long> bytes = new EnumMap<>(StorageType.class);
    long files = 0;
    long length = 0;
    long blocks = 0;
    long off = 0;
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(path, true);
    while (it.hasNext()) {
      LocatedFileStatus file = it.next();
      files++;
      length += file.getLen();
      for (BlockLocation block : file.getBlockLocations()) {
        blocks++;
        int onSsd = 0;
        StorageType[] types = block.getStorageTypes();
        for (StorageType type : types) {
          bytes.merge(type, block.getLength(), Long::sum);
          if (type == StorageType.SSD) {
            onSsd++;
          }
        }
        boolean laidOut = !ssd ? onSsd == 0
            : settings.ssdPolicy().equals("ALL_SSD") ? onSsd == types.length : onSsd >= 1;
        if (!laidOut) {
          off++;
        }
      }
    }
    return new PathUsage(path, ssd, fs.getStoragePolicy(path).getName(), files, length, blocks,
        bytes, off);
  }

  /** @return the SSD paths' usage, then each extra path's */
  public List<PathUsage> usage(List<Path> extra) throws IOException {
    List<PathUsage> usage = new ArrayList<>();
    for (Path path : settings.ssdPaths()) {
      usage.add(usage(path));
    }
    for (Path path : extra) {
      usage.add(usage(path));
    }
    return usage;
  }

  /** @return capacity and use per storage type, as the live DataNodes report them */
  public List<StorageUse> storage() throws IOException {
    Map<StorageType, long[]> sums = new EnumMap<>(StorageType.class);
    for (DatanodeStorageReport node : fs.getClient()
        .getDatanodeStorageReport(HdfsConstants.DatanodeReportType.LIVE)) {
      for (StorageReport storage : node.getStorageReports()) {
        long[] sum = sums.computeIfAbsent(storage.getStorage().getStorageType(),
            t -> new long[3]);
        sum[0]++;
        sum[1] += storage.getCapacity();
        sum[2] += storage.getDfsUsed();
      }
    }
    List<StorageUse> use = new ArrayList<>();
    sums.forEach((type, s) -> use.add(new StorageUse(type, (int) s[0], s[1], s[2])));
    return use;
  }
}
