package org.locus.kat.placement;

/**
 * Which directories are declared KAT datasets. Only below a declared dataset does an
 * {@code owner=HOST} path component mean anything to the NameNode; anywhere else (a Hive table
 * partitioned by a column named {@code owner}, say) it is an ordinary name and the file is
 * placed exactly as stock HDFS places it.
 *
 * <p>A dataset is declared by the extended attribute {@link OwnerPaths#DATASET_XATTR} on its
 * root directory; {@code locus kat import} sets it before writing the first bucket.
 */
@FunctionalInterface
public interface ManagedDatasets {
  /** Nothing is declared: every file is placed as stock HDFS places it. */
  ManagedDatasets NONE = root -> false;

  /**
   * @param datasetRoot absolute path of a directory
   * @return whether it is a declared KAT dataset
   */
  boolean isDeclared(String datasetRoot);
}
