package org.locus.lowpower.codec;

/**
 * One codec's figures on one sample, or why it could not run here.
 *
 * @param name short codec name (class simple name without {@code Codec})
 * @param codecClass the codec's class name
 * @param inputBytes uncompressed sample size
 * @param compressedBytes compressed size; -1 if unavailable
 * @param compressCpuNanos CPU time of this thread compressing the sample {@code rounds} times
 * @param decompressCpuNanos CPU time of this thread decompressing it {@code rounds} times
 * @param rounds how many times the sample was compressed and decompressed
 * @param unavailable why the codec cannot run on this machine, or null
 */
public record CodecResult(String name, String codecClass, long inputBytes, long compressedBytes,
    long compressCpuNanos, long decompressCpuNanos, int rounds, String unavailable) {

  static CodecResult unavailable(String name, String codecClass, String reason) {
    return new CodecResult(name, codecClass, 0, -1, 0, 0, 0, reason);
  }

  public boolean available() {
    return unavailable == null;
  }

  /** @return compressed size / uncompressed size */
  public double ratio() {
    return (double) compressedBytes / inputBytes;
  }

  /** @return uncompressed megabytes (10^6 B) compressed per CPU second */
  public double compressMBps() {
    return mbPerSecond(compressCpuNanos);
  }

  /** @return uncompressed megabytes (10^6 B) produced per CPU second of decompression */
  public double decompressMBps() {
    return mbPerSecond(decompressCpuNanos);
  }

  /** @return CPU seconds to compress and decompress one uncompressed gigabyte (10^9 B) */
  public double roundTripCpuSecondsPerGB() {
    return (compressCpuNanos + decompressCpuNanos) / 1e9
        / ((double) inputBytes * rounds / 1e9);
  }

  /**
   * @return megabytes (10^6 B) of I/O removed per CPU second of compress plus decompress:
   *     {@code (1 - ratio)} of the input, over the round trip's CPU time
   */
  public double savedMBPerCpuSecond() {
    return (1 - ratio()) * 1000 / roundTripCpuSecondsPerGB();
  }

  private double mbPerSecond(long cpuNanos) {
    return cpuNanos == 0 ? Double.NaN : (double) inputBytes * rounds / 1e6 / (cpuNanos / 1e9);
  }
}
