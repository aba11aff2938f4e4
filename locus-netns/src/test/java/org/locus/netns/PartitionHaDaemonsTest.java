package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code up} does with a JournalNode's or ZooKeeper server's data directory that an
 * earlier cluster in the same cluster directory left (the netns side is checked by
 * NetnsMountTableTest in locus-cli, on a real {@code up}).
 */
class PartitionHaDaemonsTest {
  @TempDir
  File tmp;

  @Test
  void anEarlierClustersJournalIsRemovedWithEverythingInIt() throws Exception {
    File journal = new File(tmp, "node2/journal");
    File segment = new File(journal, "ns3/current/edits_0000000000000000001-0000000000000000017");
    Files.createDirectories(segment.toPath().getParent());
    Files.writeString(segment.toPath(), "old edits");
    Files.createDirectories(new File(journal, "ns3/edits.sync").toPath());
    PartitionHaDaemons.clearEarlierCluster(journal);
    assertFalse(journal.exists(), journal + " is still there");
    assertTrue(new File(tmp, "node2").isDirectory(), "only the data directory goes");
  }

  @Test
  void aDirectoryNoEarlierClusterLeftIsNoError() throws Exception {
    File zookeeper = new File(tmp, "node1/zookeeper");
    PartitionHaDaemons.clearEarlierCluster(zookeeper);
    assertFalse(zookeeper.exists());
  }
}
