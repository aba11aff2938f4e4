package org.locus.lzo;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Switches a job's map output and job output to LZO (seed 003 §3.4.2), through Hadoop's own
 * compression keys only: map output uses the raw-block {@link #LZO_CODEC}, job output the
 * {@link #LZOP_CODEC} whose files the {@code lzop} tool reads. Both are the pure-Java codecs of
 * {@code org.anarres.lzo:lzo-hadoop} (GPL-3.0), so no native library is needed.
 *
 * <p>A cluster-wide setting is the same keys in {@code mapred-site.xml}; docs/lowpower.md lists
 * them.
 */
public final class LzoJobCompression {
  /** LZO codec class for map output (raw LZO blocks, extension {@code .lzo_deflate}). */
  public static final String LZO_CODEC = "org.anarres.lzo.hadoop.codec.LzoCodec";
  /** lzop-format codec class for job output (extension {@code .lzo}). */
  public static final String LZOP_CODEC = "org.anarres.lzo.hadoop.codec.LzopCodec";

  private LzoJobCompression() {
  }

  /** Compresses the intermediate (map output) data of jobs run with {@code conf} with LZO. */
  public static void compressMapOutput(Configuration conf) {
    conf.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
    conf.set(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, LZO_CODEC);
  }

  /**
   * Lets readers find both LZO codecs by file extension ({@code .lzo}, {@code .lzo_deflate}),
   * through {@code io.compression.codecs}: input formats and {@code hadoop fs -text} then read
   * LZO files. Hadoop's built-in codecs stay registered.
   */
  public static void registerCodecs(Configuration conf) {
    List<String> codecs = new ArrayList<>(
        conf.getTrimmedStringCollection(CommonConfigurationKeys.IO_COMPRESSION_CODECS_KEY));
    for (String codec : List.of(LZO_CODEC, LZOP_CODEC)) {
      if (!codecs.contains(codec)) {
        codecs.add(codec);
      }
    }
    conf.set(CommonConfigurationKeys.IO_COMPRESSION_CODECS_KEY, String.join(",", codecs));
  }

  /** Writes the output files of jobs run with {@code conf} as lzop files. */
  public static void compressJobOutput(Configuration conf) {
    conf.setBoolean(FileOutputFormat.COMPRESS, true);
    conf.set(FileOutputFormat.COMPRESS_CODEC, LZOP_CODEC);
  }
}
