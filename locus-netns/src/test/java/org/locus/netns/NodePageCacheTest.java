package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Eviction of a node's cached file pages, checked with util-linux {@code fincore} (resident
 * bytes of a file). The directory is under the module's build directory, on a disk file system:
 * a tmpfs page cannot be evicted, it is the file.
 */
class NodePageCacheTest {

  @Test
  void evictsEveryCachedFileUnderTheNodesMountsAndKeepsTheirBytes() throws Exception {
    File mounts = Files.createTempDirectory(new File("target").getAbsoluteFile().toPath(),
        "page-cache").toFile();
    File nested = new File(mounts, "disk2/current/subdir0");
    assertTrue(nested.mkdirs());
    byte[] bytes = new byte[4 << 20];
    new Random(5).nextBytes(bytes);
    Path a = new File(mounts, "disk1-blk").toPath();
    Path b = new File(nested, "blk_2").toPath();
    Files.write(a, bytes);
    Files.write(b, bytes);
    Files.readAllBytes(a);
    Files.readAllBytes(b);
    assertTrue(resident(a) > 0, "a file just written and read is cached");

    assertEquals(2, NodePageCache.evict(mounts));

    assertEquals(0, resident(a));
    assertEquals(0, resident(b));
    assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(b)));
  }

  @Test
  void aNodeWithoutMountsHasNothingToEvict() throws Exception {
    assertEquals(0, NodePageCache.evict(new File("target/no-such-node-mounts")));
    ClusterLayout layout = new ClusterLayout(new File("/tmp/some-cluster"));
    assertEquals(new File("/tmp/some-cluster/nodes/node2/mnt"),
        NodePageCache.mounts(layout, "node2"));
  }

  private static long resident(Path file) throws IOException {
    String out = HostCommand.run("fincore", "--bytes", "--noheadings", "--output", "RES",
        file.toString()).trim();
    return Long.parseLong(out);
  }
}
