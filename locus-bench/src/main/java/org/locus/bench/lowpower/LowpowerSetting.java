package org.locus.bench.lowpower;

import java.util.List;

/**
 * One row of the low-power bench: a remedy of seed 003, or stock, as the probe's writes see it.
 *
 * @param label the row's name in the report
 * @param directWrites whether the write goes to the cluster whose DataNodes write block files
 *     with O_DIRECT ({@code --feature lowpower}); otherwise to the stock cluster
 * @param bytesPerChecksum the file's checksum chunk ({@code dfs.bytes-per-checksum})
 * @param codec the codec the data is written through (compressed reducer output), or
 *     {@link HdfsWriteProbe#NO_CODEC}
 * @param remedy what the row stands for, for the report
 */
public record LowpowerSetting(String label, boolean directWrites, int bytesPerChecksum,
    String codec, String remedy) {
  /** Hadoop's default chunk. */
  public static final int STOCK_CHUNK = 512;
  public static final String LZ4 = "org.apache.hadoop.io.compress.Lz4Codec";
  /** The opt-in bundle's raw LZO codec (GPL-3.0, locus-lzo). */
  public static final String LZO = "org.anarres.lzo.hadoop.codec.LzoCodec";

  public static final LowpowerSetting STOCK = new LowpowerSetting("stock", false, STOCK_CHUNK,
      HdfsWriteProbe.NO_CODEC, "Hadoop 3.5.0 as shipped");

  /**
   * @param lzo whether the opt-in LZO bundle is available
   * @return the rows, stock first
   */
  public static List<LowpowerSetting> all(boolean lzo) {
    List<LowpowerSetting> rows = new java.util.ArrayList<>(List.of(STOCK,
        new LowpowerSetting("direct-io", true, STOCK_CHUNK, HdfsWriteProbe.NO_CODEC,
            "DataNodes write block files with O_DIRECT (§3.3, --feature lowpower)"),
        new LowpowerSetting("checksum-4096", false, 4096, HdfsWriteProbe.NO_CODEC,
            "one CRC per 4096 bytes instead of 512 (§3.4.1)"),
        new LowpowerSetting("lz4-output", false, STOCK_CHUNK, LZ4,
            "output written through Lz4Codec (built in; the codec bench's pick)")));
    if (lzo) {
      rows.add(new LowpowerSetting("lzo-output", false, STOCK_CHUNK, LZO,
          "output written through LzoCodec (§3.4.2; opt-in GPL bundle)"));
    }
    return rows;
  }
}
