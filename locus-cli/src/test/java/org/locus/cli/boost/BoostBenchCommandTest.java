package org.locus.cli.boost;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.locus.cli.CliRun;

/**
 * {@code locus bench boost}'s arguments, refused before any cluster starts (the bench itself
 * needs root and two netns clusters; its output is checked by hand, see docs/boost.md).
 */
class BoostBenchCommandTest {
  @Test
  void aBlockSizeIsWholeMebibytesOrGibibytes() {
    // whole MiB: never below the NameNode's 1 MiB minimum, always whole checksum chunks
    for (String size : new String[] {"512k", "0m", "32mb"}) {
      CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--block-size", size);
      assertTrue(run.err().contains("--block-size needs a size like 512m or 2g, got '" + size
          + "'"), run.err());
    }
  }

  @Test
  void aTaskContainerLargerThanANodeOffersIsRefused() {
    CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--node-memory", "1280m",
        "--map-memory", "768m");
    assertTrue(run.err().contains("--map-memory 768m but a node offers its containers 512 MiB"),
        run.err());
  }

  @Test
  void aContainerYarnWouldRoundUpIsRefusedWithTheSizeItWouldGet() {
    CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--am-memory", "384m");
    assertTrue(run.err().contains("--am-memory 384m is not a multiple of 256m: YARN rounds"
        + " container requests up to one (yarn.scheduler.minimum-allocation-mb), so the task would"
        + " get 512m; ask for 256m or 512m"), run.err());
  }

  @Test
  void aJobKeyWithoutAValueIsRefused() {
    CliRun run = CliRun.inProcessExpecting(2, "bench", "boost", "--job-key",
        "mapreduce.map.speculative");
    assertTrue(run.err().contains("--job-key needs KEY=VALUE, got 'mapreduce.map.speculative'"),
        run.err());
  }

  @Test
  void helpListsTheBlockSize() {
    CliRun run = CliRun.inProcessExpecting(0, "bench", "boost", "--help");
    assertTrue(run.out().contains("--block-size <SIZE>"), run.out());
    assertTrue(run.out().contains("--am-memory <SIZE>"), run.out());
  }
}
