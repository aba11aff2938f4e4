package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import org.junit.jupiter.api.Test;

/** Which directories a cluster may live in. */
class ClusterDirectoryTest {
  @Test
  void aDirectoryWithACommaIsRefusedBeforeHadoopSplitsIt() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> new ClusterDirectory(new File("/tmp/bench-none,kat/cluster")));
    assertTrue(refused.getMessage().contains("/tmp/bench-none,kat/cluster contains ','"),
        refused.getMessage());
  }

  @Test
  void anOrdinaryDirectoryIsTakenAsAnAbsolutePath() {
    assertEquals(new File("c").getAbsoluteFile(), new ClusterDirectory(new File("c")).root());
  }
}
