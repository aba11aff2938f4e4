package org.locus.jobs.puma;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.hadoop.io.WritableComparator;

/**
 * The terasort record: 100 bytes, a 10-byte key of random bytes first. Layout (ours):
 *
 * <pre>
 *   [0, 10)   key: 10 pseudo-random bytes, any value 0x00-0xff
 *   [10, 12)  two spaces
 *   [12, 44)  row number, 32 upper-case hex digits, zero-padded
 *   [44, 46)  two spaces
 *   [46, 98)  filler: letters A-Z, rotating with the row number
 *   [98, 100) "\r\n"
 * </pre>
 *
 * Row {@code r} of seed {@code s} is always the same bytes, so parallel generators agree.
 */
public final class TeraRecords {
  public static final int RECORD_BYTES = 100;
  public static final int KEY_BYTES = 10;

  private TeraRecords() {
  }

  /** Fills {@code record} (100 bytes) with row {@code row} of the data set of {@code seed}. */
  public static void fill(long seed, long row, byte[] record) {
    long a = mix(seed * 0x9E3779B97F4A7C15L + row);
    long b = mix(a ^ row);
    for (int i = 0; i < 8; i++) {
      record[i] = (byte) (a >>> (56 - 8 * i));
    }
    record[8] = (byte) (b >>> 56);
    record[9] = (byte) (b >>> 48);
    record[10] = ' ';
    record[11] = ' ';
    byte[] hex = String.format("%032X", row).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(hex, 0, record, 12, 32);
    record[44] = ' ';
    record[45] = ' ';
    for (int i = 46; i < 98; i++) {
      record[i] = (byte) ('A' + (row + i) % 26);
    }
    record[98] = '\r';
    record[99] = '\n';
  }

  /** The splitmix64 finaliser: a well-mixed 64-bit value from any input. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Unsigned lexicographic comparison of two keys, the order terasort sorts by. */
  public static int compareKeys(byte[] a, int aOffset, byte[] b, int bOffset) {
    return WritableComparator.compareBytes(a, aOffset, KEY_BYTES, b, bOffset, KEY_BYTES);
  }

  /** @return the key of {@code record} (first 10 bytes) as hex, for messages */
  public static String keyHex(byte[] key) {
    StringBuilder hex = new StringBuilder();
    for (byte value : Arrays.copyOf(key, KEY_BYTES)) {
      hex.append(String.format("%02x", value & 0xff));
    }
    return hex.toString();
  }

  /** @return a key from its hex form */
  public static byte[] parseKeyHex(String hex) {
    byte[] key = new byte[hex.length() / 2];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return key;
  }
}
