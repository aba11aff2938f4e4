package org.locus.energy.datanode.offload;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetFactory;
import org.apache.hadoop.util.ReflectionUtils;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.EnergySettings;
import org.locus.energy.policy.WriteOffloadPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DataNode's dataset factory ({@code dfs.datanode.fsdataset.factory}) for write off-loading.
 * It builds the dataset with the factory named by {@value EnergyConfigKeys#OFFLOAD_INNER_FACTORY}
 * (Hadoop's own by default); with {@value EnergyConfigKeys#OFFLOAD_WRITES} off it returns that
 * dataset unchanged, so the DataNode runs stock code. With it on it returns the dataset seen
 * through {@link OffloadingDataset}, which the power manager plug-in finds as
 * {@link WriteOffloading} and tells which backups sleep.
 *
 * <p>A bad energy key fails here as in the power manager: the DataNode logs "Initialization
 * failed for Block pool" with the key named, and stays out of service.
 */
public final class WriteOffloadingDatasetFactory extends FsDatasetSpi.Factory<FsDatasetSpi<?>> {
  private static final Logger LOG = LoggerFactory.getLogger(WriteOffloadingDatasetFactory.class);

  @Override
  public FsDatasetSpi<?> newInstance(DataNode datanode, DataStorage storage, Configuration conf)
      throws IOException {
    EnergySettings settings;
    FsDatasetSpi.Factory<?> innerFactory;
    try {
      settings = EnergySettings.from(conf);
      innerFactory = innerFactory(conf);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    FsDatasetSpi<?> inner = innerFactory.newInstance(datanode, storage, conf);
    if (!settings.offloadWrites()) {
      return inner;
    }
    long blockBytes = conf.getLongBytes("dfs.blocksize", 128L << 20);
    LOG.info("Writes meant for sleeping backup volumes are staged on primary volumes (up to {}"
        + " MiB), then moved", settings.offloadMaxStagedBytes() >> 20);
    return OffloadingDataset.wrap(inner,
        new WriteOffloadPolicy(true, settings.offloadMaxStagedBytes()), blockBytes);
  }

  private static FsDatasetSpi.Factory<?> innerFactory(Configuration conf) {
    Class<?> c;
    try {
      c = conf.getClass(EnergyConfigKeys.OFFLOAD_INNER_FACTORY, FsDatasetFactory.class);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(EnergyConfigKeys.OFFLOAD_INNER_FACTORY
          + " names no class on the DataNode's class path: " + e.getMessage(), e);
    }
    if (!FsDatasetSpi.Factory.class.isAssignableFrom(c)
        || c == WriteOffloadingDatasetFactory.class) {
      throw new IllegalArgumentException(EnergyConfigKeys.OFFLOAD_INNER_FACTORY + " must name an"
          + " FsDatasetSpi.Factory other than this one; got " + c.getName());
    }
    return (FsDatasetSpi.Factory<?>) ReflectionUtils.newInstance(c, conf);
  }
}
