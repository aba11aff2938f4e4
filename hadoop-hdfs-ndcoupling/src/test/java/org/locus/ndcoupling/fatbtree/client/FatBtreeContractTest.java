package org.locus.ndcoupling.fatbtree.client;

import java.io.File;
import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractContractMkdirTest;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractContractRenameTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/**
 * Hadoop's own file system contract tests against {@code locusfbt://}: create, open, delete,
 * mkdir, rename, getFileStatus and append, with the options of {@code contract/locusfbt.xml}
 * (HDFS's, less concat and the root-directory tests). One FBB cluster of three partitions
 * serves them all. The contract's test directory {@value #TEST_DIR} is assigned to partition
 * {@value #PARTITION} and the client enters at node {@value #ENTRY}, so every path is on
 * neither the entry node's partition nor the root's, and its lookups are forwarded to index
 * node {@value #PARTITION}. The contract deletes its directory after every test; it is
 * assigned again before the next.
 */
class FatBtreeContractTest {
  private static final String TEST_DIR = "/contract";
  private static final int PARTITION = 2;
  private static final int ENTRY = 3;

  private static FbbTestCluster cluster;
  private static FatBtreeFileSystem fs;

  /**
   * A pattern such as {@code -Dtest='org.locus.ndcoupling.fatbtree.**'} selects every nested
   * class on its own too, and surefire may run one in a second JVM while this class runs: each
   * JVM starts the cluster in a directory of its own, or they delete and lock each other's.
   */
  @BeforeAll
  static void start() throws IOException {
    cluster = FbbTestCluster.start(new File("target/test-clusters/fbb-contract-"
        + ProcessHandle.current().pid()), 3);
    fs = cluster.fbb(ENTRY);
  }

  @AfterAll
  static void stop() {
    IOUtils.cleanupWithLogger(null, fs);
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The contract: the shared client, its test directory assigned to {@link #PARTITION}. */
  static final class FbbContract extends AbstractFSContract {
    FbbContract(Configuration conf) {
      super(conf);
      addConfResource("contract/locusfbt.xml");
    }

    @Override
    public FileSystem getTestFileSystem() throws IOException {
      fs.assignSubtree(new Path(TEST_DIR), PARTITION);
      return fs;
    }

    @Override
    public String getScheme() {
      return FatBtreeFileSystem.SCHEME;
    }

    @Override
    public Path getTestPath() {
      return new Path(TEST_DIR);
    }
  }

  @Nested
  class Create extends AbstractContractCreateTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return new FbbContract(conf);
    }
  }

  @Nested
  class Open extends AbstractContractOpenTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return new FbbContract(conf);
    }
  }

  @Nested
  class Delete extends AbstractContractDeleteTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return new FbbContract(conf);
    }
  }

  @Nested
  class Mkdir extends AbstractContractMkdirTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return new FbbContract(conf);
    }
  }

  @Nested
  class Rename extends AbstractContractRenameTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return new FbbContract(conf);
    }
  }

  @Nested
  class GetFileStatus extends AbstractContractGetFileStatusTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return new FbbContract(conf);
    }
  }

  @Nested
  class Append extends AbstractContractAppendTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return new FbbContract(conf);
    }
  }
}
