package org.locus.hybrid;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;

/**
 * Lays the hybrid profile onto a running cluster with stock means only: each SSD path is
 * created if missing and given the stock storage policy ({@code hdfs storagepolicies
 * -setStoragePolicy} does the same), so HDFS itself puts new blocks there on SSD volumes.
 * Intermediate data needs no step: it is MapReduce's, in each NodeManager's local directories,
 * which the cluster's layout puts on HDD.
 */
public final class HybridLayout {
  /** What {@link #apply} did to one path. */
  public record Applied(Path path, boolean created, String policyBefore, String policy) {
  }

  private HybridLayout() {
  }

  /**
   * @throws IOException naming the cause when no live DataNode has an SSD volume (HDFS would
   *     silently fall back to DISK) or a path is a file
   */
  public static List<Applied> apply(DistributedFileSystem fs, HybridSettings settings)
      throws IOException {
    if (ssdStorages(fs) == 0) {
      throw new IOException("no live DataNode reports an SSD volume, so HDFS would keep "
          + settings.ssdPaths() + " on DISK; give DataNodes [SSD] entries in"
          + " dfs.datanode.data.dir (netns cluster: --volumes SSD,DISK)");
    }
    List<Applied> applied = new ArrayList<>();
    for (Path path : settings.ssdPaths()) {
      boolean created = false;
      if (!fs.exists(path)) {
        created = fs.mkdirs(path);
      } else if (!fs.getFileStatus(path).isDirectory()) {
        throw new IOException(path + " is a file; " + HybridConfigKeys.SSD_PATHS
            + " names directories that input and output are written under");
      }
      String before = fs.getStoragePolicy(path).getName();
      fs.setStoragePolicy(path, settings.ssdPolicy());
      applied.add(new Applied(path, created, before, fs.getStoragePolicy(path).getName()));
    }
    return applied;
  }

  /** @return how many SSD storages the live DataNodes report */
  static int ssdStorages(DistributedFileSystem fs) throws IOException {
    int ssd = 0;
    for (DatanodeStorageReport node : fs.getClient()
        .getDatanodeStorageReport(HdfsConstants.DatanodeReportType.LIVE)) {
      for (StorageReport storage : node.getStorageReports()) {
        if (storage.getStorage().getStorageType() == StorageType.SSD) {
          ssd++;
        }
      }
    }
    return ssd;
  }
}
