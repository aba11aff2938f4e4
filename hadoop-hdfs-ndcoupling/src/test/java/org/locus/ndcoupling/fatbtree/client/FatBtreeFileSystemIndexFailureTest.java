package org.locus.ndcoupling.fatbtree.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@code locusfbt://} leaves behind when the index refuses an entry after the partition
 * made the path: nothing. An index node whose page directory is gone still answers lookups
 * from the pages it holds in memory but fails every write, so a create's or mkdirs's register
 * fails after the partition's create succeeded. (Such a node keeps the failed write's latch;
 * hence a cluster of its own, and one failing write per node.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FatBtreeFileSystemIndexFailureTest {

  @Test
  void aRegisterThatFailsTakesBackWhatTheCreateMade() throws Exception {
    try (FbbTestCluster cluster = FbbTestCluster.start(
        new File("target/test-clusters/fbb-fs-index-failure"), 2);
        FatBtreeFileSystem fs = cluster.fbb(1);
        FileSystem ns1 = cluster.hdfs(1); FileSystem ns2 = cluster.hdfs(2);
        FatBtreePartitionResolver index = cluster.resolver(1)) {
      fs.mkdirs(new Path("/on1"));
      fs.assignSubtree(new Path("/on2"), 2);
      assertTrue(FileUtil.fullyDelete(cluster.indexDir(1)));
      assertTrue(FileUtil.fullyDelete(cluster.indexDir(2)));

      Exception create = assertThrows(Exception.class,
          () -> fs.create(new Path("/on1/f")).close());
      assertTrue(String.valueOf(create.getMessage()).contains("index-1"),
          "the file's entry cannot be written on index node 1: " + create);
      assertFalse(ns1.exists(new Path("/on1/f")), "the file is deleted again");
      assertEquals(OptionalInt.empty(), index.entryOf("/on1/f"));

      Exception mkdirs = assertThrows(Exception.class,
          () -> fs.mkdirs(new Path("/on2/new/deeper")));
      assertTrue(String.valueOf(mkdirs.getMessage()).contains("index-2"),
          "the new parent's entry cannot be written on index node 2: " + mkdirs);
      assertFalse(ns2.exists(new Path("/on2/new")), "the parent the mkdirs made is deleted");
      assertTrue(ns2.exists(new Path("/on2")), "what was there before stays");
      assertEquals(OptionalInt.empty(), index.entryOf("/on2/new"));
      assertEquals(OptionalInt.empty(), index.entryOf("/on2/new/deeper"));
    }
  }
}
