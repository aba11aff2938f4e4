package org.locus.lowpower.datanode;

import java.io.File;
import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetFactory;
import org.locus.lowpower.LowpowerConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DataNode's dataset factory ({@code dfs.datanode.fsdataset.factory}) for direct-I/O block
 * writes (seed 003 §3.3). It always builds Hadoop's own dataset through Hadoop's own factory;
 * with {@value LowpowerConfigKeys#DIRECT_WRITES} off it returns that dataset as it is, so the
 * DataNode runs stock code. With the toggle on it first checks that every persistent volume
 * accepts {@code O_DIRECT}, then hands the DataNode the same dataset seen through
 * {@link DirectWriteDataset}.
 *
 * <p>Hadoop calls this when a block pool initialises; an exception here is logged by the
 * DataNode as "Initialization failed for Block pool" with this class's message, and the pool is
 * retried, so a wrong setting keeps the DataNode out of service with the key named in its log.
 */
public final class DirectWriteDatasetFactory extends FsDatasetSpi.Factory<FsDatasetSpi<?>> {
  private static final Logger LOG = LoggerFactory.getLogger(DirectWriteDatasetFactory.class);

  @Override
  public FsDatasetSpi<?> newInstance(DataNode datanode, DataStorage storage, Configuration conf)
      throws IOException {
    DirectWriteSettings settings;
    try {
      settings = DirectWriteSettings.from(conf);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    FsDatasetSpi<?> stock = new FsDatasetFactory().newInstance(datanode, storage, conf);
    if (!settings.enabled()) {
      return stock;
    }
    try {
      requireDirectIo(stock);
    } catch (IOException e) {
      stock.shutdown();
      throw e;
    }
    LOG.info("Block files are written with O_DIRECT ({}), staging buffer {} bytes",
        LowpowerConfigKeys.DIRECT_WRITES, settings.bufferBytes());
    return DirectWriteDataset.wrap(stock, settings.bufferBytes());
  }

  /** Refuses a volume whose file system rejects O_DIRECT (tmpfs, some FUSE mounts). */
  private static void requireDirectIo(FsDatasetSpi<?> dataset) throws IOException {
    try (FsDatasetSpi.FsVolumeReferences volumes = dataset.getFsVolumeReferences()) {
      for (FsVolumeSpi volume : volumes) {
        if (volume.isTransientStorage()) {
          continue; // RAM_DISK replicas keep stock streams (DirectWriteReplica skips them)
        }
        File dir = new File(volume.getBaseURI());
        try {
          DirectBlockOutputStream.requireSupport(dir);
        } catch (IOException e) {
          throw new IOException(LowpowerConfigKeys.DIRECT_WRITES + " is true but volume " + dir
              + " does not accept O_DIRECT writes (" + e.getMessage() + "); set it to false or"
              + " move the volume to a file system that does (ext4, xfs)", e);
        }
      }
    }
  }
}
