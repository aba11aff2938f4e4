package org.locus.bench.checksum;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Random;

import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.MD5MD5CRC32FileChecksum;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.DataChecksum;
import org.locus.bench.BenchException;

/**
 * The file the checksum bench moves, and the two ways it moves it: written to HDFS in calls of
 * one size, read back in calls of the same size and compared byte for byte.
 *
 * <p>Content: {@link #PERIOD} pseudo-random bytes repeated; byte {@code p} of the file is
 * {@code pattern[p % PERIOD]}. The period is odd, so successive checksum chunks and calls see
 * different bytes. {@code source} holds the pattern followed by its first bytes again, so a
 * call of up to {@code maxCallBytes} starting at any position is one slice of it: writing and
 * comparing copy nothing beyond what the streams themselves copy.
 */
public final class ChecksumWorkload {
  static final int PERIOD = (1 << 20) + 3;

  private final long fileBytes;
  private final byte[] source;

  /**
   * @param fileBytes size of every file
   * @param maxCallBytes the largest write or read call that will be made
   * @param seed seed of the pattern
   */
  public ChecksumWorkload(long fileBytes, int maxCallBytes, long seed) {
    this.fileBytes = fileBytes;
    byte[] pattern = new byte[PERIOD];
    new Random(seed).nextBytes(pattern);
    this.source = new byte[PERIOD + maxCallBytes];
    for (int i = 0; i < source.length; i++) {
      source[i] = pattern[i % PERIOD];
    }
  }

  public long fileBytes() {
    return fileBytes;
  }

  /**
   * Creates {@code path} with the setting's replication and checksum chunk (the cluster's
   * checksum type) and writes the content in the setting's calls, through a
   * {@code BufferedOutputStream} when the setting is buffered; returns once it is closed, that
   * is once every DataNode of the pipeline has acknowledged every packet.
   */
  public void write(FileSystem fs, Path path, ChecksumSetting setting) throws IOException {
    OutputStream file = fs.create(path, FsPermission.getFileDefault(),
        EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE),
        fs.getConf().getInt(CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_KEY,
            CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_DEFAULT),
        (short) setting.replication(), ChecksumBenchRequest.BLOCK_BYTES, null,
        new ChecksumOpt(DataChecksum.Type.DEFAULT, setting.bytesPerChecksum()));
    try (OutputStream out = setting.buffered()
        ? new BufferedOutputStream(file, setting.bufferBytes()) : file) {
      writeTo(out, setting.writeBytes());
    }
  }

  /** Writes the whole content to {@code out} in calls of {@code callBytes}. */
  public void writeTo(OutputStream out, int callBytes) throws IOException {
    checkCall(callBytes);
    for (long p = 0; p < fileBytes; p += callBytes) {
      out.write(source, (int) (p % PERIOD), (int) Math.min(callBytes, fileBytes - p));
    }
  }

  /**
   * Reads {@code path} in the setting's calls (through a {@code BufferedInputStream} when the
   * setting is buffered) and compares every byte with the content.
   *
   * @throws BenchException if the file is shorter, longer or differs anywhere: the bench must
   *     not report a speed for a file that did not come back
   */
  public void readAndCompare(FileSystem fs, Path path, ChecksumSetting setting)
      throws IOException, BenchException {
    int callBytes = setting.writeBytes();
    checkCall(callBytes);
    byte[] buffer = new byte[callBytes];
    long p = 0;
    try (InputStream in = setting.buffered()
        ? new BufferedInputStream(fs.open(path), setting.bufferBytes()) : fs.open(path)) {
      for (int n = in.read(buffer, 0, callBytes); n >= 0; n = in.read(buffer, 0, callBytes)) {
        if (p + n > fileBytes) {
          throw new BenchException(path + " is longer than the " + fileBytes
              + " bytes written (" + setting + ")");
        }
        int at = (int) (p % PERIOD);
        int differs = Arrays.mismatch(buffer, 0, n, source, at, at + n);
        if (differs >= 0) {
          throw new BenchException(path + " differs from what was written at byte "
              + (p + differs) + " (" + setting + ")");
        }
        p += n;
      }
    }
    if (p != fileBytes) {
      throw new BenchException(path + " holds " + p + " bytes, " + fileBytes + " were written ("
          + setting + ")");
    }
  }

  /**
   * @return the checksum chunk HDFS keeps for {@code path}, as the DataNodes report it from
   *     the block metadata ({@code FileSystem.getFileChecksum} in MD5-of-CRC mode, HDFS's
   *     default)
   */
  public static ChecksumOpt checksumOf(FileSystem fs, Path path) throws IOException,
      BenchException {
    FileChecksum checksum = fs.getFileChecksum(path);
    if (!(checksum instanceof MD5MD5CRC32FileChecksum)) {
      throw new BenchException("the file checksum of " + path + " is "
          + (checksum == null ? "missing" : checksum.getAlgorithmName())
          + ", not an MD5-of-CRC checksum that names the chunk size; leave"
          + " dfs.checksum.combine.mode at MD5MD5CRC");
    }
    return checksum.getChecksumOpt();
  }

  private void checkCall(int callBytes) {
    if (callBytes < 1 || callBytes > source.length - PERIOD) {
      throw new IllegalArgumentException("call of " + callBytes + " bytes; this workload takes"
          + " 1.." + (source.length - PERIOD));
    }
  }
}
