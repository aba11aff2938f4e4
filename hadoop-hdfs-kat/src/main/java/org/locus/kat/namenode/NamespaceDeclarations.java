package org.locus.kat.namenode;

import java.io.IOException;

import org.apache.hadoop.hdfs.server.namenode.FSDirectory;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.XAttrFeature;
import org.apache.hadoop.hdfs.util.RwLockMode;
import org.locus.kat.placement.ManagedDatasets;
import org.locus.kat.placement.OwnerPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode's own view of which directories are KAT datasets: it looks for
 * {@link OwnerPaths#DATASET_XATTR} on the directory's inode, in memory, under the namesystem's
 * read lock. No RPC, no permission check (the writer already passed those to create its file)
 * and no audit log entry.
 *
 * <p>Called from block placement, which the NameNode runs without holding its namesystem lock
 * (targets for a new block are chosen between the two locked phases of {@code addBlock}), so
 * taking the read lock here cannot invert a lock order.
 */
public final class NamespaceDeclarations implements ManagedDatasets {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceDeclarations.class);
  private final FSNamesystem namesystem;

  public NamespaceDeclarations(FSNamesystem namesystem) {
    this.namesystem = namesystem;
  }

  @Override
  public boolean isDeclared(String datasetRoot) {
    namesystem.readLock(RwLockMode.FS);
    try {
      INode inode = namesystem.getFSDirectory().getINode(datasetRoot,
          FSDirectory.DirOp.READ);
      if (inode == null || !inode.isDirectory()) {
        return false;
      }
      XAttrFeature xattrs = inode.getXAttrFeature();
      return xattrs != null && xattrs.getXAttr(OwnerPaths.DATASET_XATTR) != null;
    } catch (IOException e) {
      // An unresolvable path (a symlink, a file as parent) is not a declared dataset.
      LOG.debug("{} is not a KAT dataset: {}", datasetRoot, e.toString());
      return false;
    } finally {
      namesystem.readUnlock(RwLockMode.FS, "locusKatDatasetDeclaration");
    }
  }
}
