package org.locus.lowpower.datanode.hadoop;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.hdfs.TestFileAppend;
import org.junit.jupiter.api.Test;

/**
 * Hadoop 3.5.0's own {@code TestFileAppend} on DataNodes writing with O_DIRECT: 10 of its 13
 * tests run as they are. The other three reach into the DataNode's dataset with casts to
 * Hadoop's own classes in their test code, which the DataNode code itself never makes, so they
 * cannot run on any dataset other than {@code FsDatasetImpl} (Hadoop's
 * {@code SimulatedFSDataset} included); each stock run of them passes. Here each is run and must
 * stop at exactly that cast, not anywhere a data error would show: if Hadoop's test stops
 * casting, or fails for another reason, these fail and must be looked at again.
 */
class FileAppendWithDirectWritesTest extends TestFileAppend {
  static {
    HadoopTestsWithDirectWrites.install();
  }

  /** Casts the dataset to FsDatasetImpl ({@code FsDatasetTestUtil.getBlockFile}). */
  @Test
  @Override
  public void testBreakHardlinksIfNeeded() {
    assertThrows(ClassCastException.class, super::testBreakHardlinksIfNeeded);
  }

  /** Corrupts the block through {@code FsDatasetImplTestUtils}, which checks for FsDatasetImpl. */
  @Test
  @Override
  public void testAppendCorruptedBlock() {
    assertThrows(IllegalArgumentException.class, super::testAppendCorruptedBlock);
  }

  /** Casts the replica returned by the dataset's {@code append()} to ReplicaBeingWritten. */
  @Test
  @Override
  public void testConcurrentAppendRead() {
    assertThrows(ClassCastException.class, super::testConcurrentAppendRead);
  }
}
