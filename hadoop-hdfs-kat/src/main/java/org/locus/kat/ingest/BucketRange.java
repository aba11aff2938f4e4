package org.locus.kat.ingest;

/**
 * Bytes {@code [offset, offset + length)} of one bucket's file: where one append put its records
 * of that bucket. Written {@code BUCKET:OFFSET+LENGTH}.
 */
public record BucketRange(int bucket, long offset, long length) {
  public BucketRange {
    if (bucket < 0 || offset < 0 || length < 0) {
      throw new IllegalArgumentException("bucket, offset and length must be >= 0: " + bucket
          + ":" + offset + "+" + length);
    }
  }

  public long end() {
    return offset + length;
  }

  /** @throws IllegalArgumentException naming the text when it is not BUCKET:OFFSET+LENGTH */
  public static BucketRange parse(String text) {
    int colon = text.indexOf(':');
    int plus = text.indexOf('+', colon + 1);
    if (colon < 1 || plus < 0) {
      throw new IllegalArgumentException("'" + text + "' is not BUCKET:OFFSET+LENGTH");
    }
    try {
      return new BucketRange(Integer.parseInt(text.substring(0, colon)),
          Long.parseLong(text.substring(colon + 1, plus)),
          Long.parseLong(text.substring(plus + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not BUCKET:OFFSET+LENGTH", e);
    }
  }

  @Override
  public String toString() {
    return bucket + ":" + offset + "+" + length;
  }
}
