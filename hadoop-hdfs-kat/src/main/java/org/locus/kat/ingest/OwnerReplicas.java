package org.locus.kat.ingest;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Waits until the NameNode reports a replica on a file's owner for every block.
 *
 * <p>Closing a file returns once the NameNode knows the minimum number of replicas (one); the
 * other DataNodes of the pipeline report theirs a moment later. Checking an owner's replica right
 * after close would therefore sometimes see it missing although it is being written.
 */
public final class OwnerReplicas {
  private static final long POLL_MILLIS = 100;

  private OwnerReplicas() {
  }

  /**
   * @return true once every block of {@code file} lists {@code owner}; false if that has not
   *     happened within {@code timeoutMillis}
   */
  public static boolean await(FileSystem fs, Path file, String owner, long timeoutMillis)
      throws IOException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    while (true) {
      if (allBlocksOn(fs, fs.getFileStatus(file), owner)) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for replicas of " + file);
      }
    }
  }

  private static boolean allBlocksOn(FileSystem fs, FileStatus file, String owner)
      throws IOException {
    for (BlockLocation block : fs.getFileBlockLocations(file, 0, file.getLen())) {
      if (!Arrays.asList(block.getHosts()).contains(owner)) {
        return false;
      }
    }
    return true;
  }
}
