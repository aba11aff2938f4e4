package org.locus.bench.metadata;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileUtil;

/**
 * A barrier between the bench's client processes, one per node: each marks its arrival at a
 * phase with a file {@code PHASE.nodeK} in a directory all of them see, then waits until all
 * nodes' files are there. The bench empties the directory before it starts the clients
 * ({@link #reset}), so that arrivals left by an earlier bench in the same output directory
 * cannot release a phase early (one did: readers then asked for files not yet written).
 */
final class StartBarrier {
  private final File dir;
  private final int nodes;
  private final long timeoutMillis;

  StartBarrier(File dir, int nodes, long timeoutMillis) {
    this.dir = dir;
    this.nodes = nodes;
    this.timeoutMillis = timeoutMillis;
  }

  /** Makes {@code dir} an empty directory; returns it. */
  static File reset(File dir) throws IOException {
    if (dir.exists() && !FileUtil.fullyDelete(dir)) {
      throw new IOException("cannot empty the bench's barrier directory " + dir);
    }
    Files.createDirectories(dir.toPath());
    return dir;
  }

  /** Marks node {@code node} as arrived at {@code phase} and waits for every other node. */
  void await(String phase, int node) throws IOException, InterruptedException {
    Files.createDirectories(dir.toPath());
    Files.writeString(new File(dir, phase + ".node" + node).toPath(), "");
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (true) {
      int arrived = arrivals(phase);
      if (arrived >= nodes) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("barrier '" + phase + "' in " + dir + ": " + arrived + " of "
            + nodes + " clients after " + TimeUnit.MILLISECONDS.toSeconds(timeoutMillis)
            + " s");
      }
      Thread.sleep(10);
    }
  }

  private int arrivals(String phase) {
    String[] arrived = dir.list((d, name) -> name.startsWith(phase + ".node"));
    return arrived == null ? 0 : arrived.length;
  }
}
