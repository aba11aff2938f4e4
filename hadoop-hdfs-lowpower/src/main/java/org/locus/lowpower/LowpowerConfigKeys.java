package org.locus.lowpower;

/**
 * Every configuration key of the low-power remedies (seed 003), with its default and a one-line
 * meaning. {@code conf/features/lowpower.xml} is the set a cluster turns on;
 * {@code docs/lowpower.md} explains each key.
 *
 * <p>The DataNode's direct-I/O writes are installed with the stock key
 * {@code dfs.datanode.fsdataset.factory} (see {@link #DATASET_FACTORY_CLASS}); the keys below
 * switch and tune them. With the toggle off the factory hands the DataNode Hadoop's own dataset,
 * untouched.
 */
public final class LowpowerConfigKeys {
  private LowpowerConfigKeys() {
  }

  /** The stock dataset-factory key's value that puts Locus between a DataNode and its dataset. */
  public static final String DATASET_FACTORY_CLASS =
      "org.locus.lowpower.datanode.DirectWriteDatasetFactory";

  /** Seed 003 §3.3: DataNodes write block files with O_DIRECT (reads stay buffered). */
  public static final String DIRECT_WRITES = "locus.lowpower.datanode.direct.writes";
  public static final boolean DIRECT_WRITES_DEFAULT = false;

  /** Aligned staging buffer per block being written, bytes (rounded up to the fs block size). */
  public static final String DIRECT_BUFFER_BYTES = "locus.lowpower.datanode.direct.buffer.bytes";
  public static final int DIRECT_BUFFER_BYTES_DEFAULT = 128 * 1024;
}
