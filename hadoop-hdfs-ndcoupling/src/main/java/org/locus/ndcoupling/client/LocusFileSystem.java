package org.locus.ndcoupling.client;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.viewfs.ViewFileSystem;
import org.apache.hadoop.util.Progressable;
import org.apache.hadoop.util.ReflectionUtils;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * The coupled namespace as one file system, {@code locus://ENTRY/}: the client names any node
 * as its entry point (its partition's nameservice, {@code locus://ns2/}, or its NameNode's
 * address, {@code locus://host:8020/}), learns the mount table from that node through a
 * {@link PartitionResolver}, and from then on sends every call straight to the partition that
 * owns the path (no hop through the entry node).
 *
 * <p>The mechanism is Hadoop's own client-side mount table, {@link ViewFileSystem}, built from
 * the table as a {@link MountTableView}; this class sends every call to that view. What Locus
 * adds: the table comes from the entry node (not from the client's configuration), and a rename
 * across partitions is refused up front naming both partitions
 * ({@link CrossPartitionRenameException}).
 *
 * <p>A file system reads the table when it is created; a changed table reaches every client
 * created after the change (each {@code hdfs dfs} command, each task JVM,
 * {@code FileSystem.newInstance}), not instances already cached in a running JVM.
 */
public class LocusFileSystem extends FileSystem {
  /** The URI scheme, registered as {@code fs.locus.impl} and through the service loader. */
  public static final String SCHEME = "locus";

  private URI uri;
  private URI entry;
  private PartitionFileSystems partitions;
  private volatile MountTableView view;

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    String authority = name.getAuthority();
    if (authority == null || authority.isEmpty()) {
      throw new IOException("a locus:// URI names its entry node: locus://ns2/ (a partition)"
          + " or locus://HOST:PORT/ (its NameNode), got " + name);
    }
    uri = URI.create(SCHEME + "://" + authority + "/");
    entry = URI.create("hdfs://" + authority);
    partitions = new PartitionFileSystems();
    try (PartitionResolver resolver = ReflectionUtils.newInstance(conf.getClass(
        NdCouplingConfigKeys.MOUNT_RESOLVER, StoredMountTableResolver.class,
        PartitionResolver.class), conf)) {
      view = MountTableView.of(uri, resolver.load(entry, conf), partitions, conf);
    }
  }

  /** @return the view of the table in force */
  private MountTableView view() {
    return view;
  }

  /** @return the mount table in force */
  public MountTable mountTable() {
    return view().table();
  }

  /** @return the entry node's partition this file system learns its table from */
  public URI entry() {
    return entry;
  }

  /** @return the partition that owns {@code path} under the table in force */
  public String partitionOf(Path path) {
    MountTableView v = view();
    return v.table().partitionOf(v.pathOf(path));
  }

  @Override
  public void close() throws IOException {
    try {
      super.close(); // deletes what deleteOnExit named, through the partitions still open
    } finally {
      if (partitions != null) {
        partitions.close();
      }
    }
  }

  // Every call below goes to the view of the table in force, read once per call, so a call
  // (a rename's source and target too) sees one table whole. What FileSystem implements from
  // these (exists, listFiles, globStatus, the builders) follows through them.

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public Path resolvePath(Path f) throws IOException {
    return view().resolvePath(f);
  }

  @Override
  public Path getHomeDirectory() {
    return view().getHomeDirectory();
  }

  @Override
  public Path getWorkingDirectory() {
    return view().getWorkingDirectory();
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    view().setWorkingDirectory(dir);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    return view().open(f, bufferSize);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress)
      throws IOException {
    return view().create(f, permission, overwrite, bufferSize, replication, blockSize,
        progress);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
      EnumSet<CreateFlag> flags, int bufferSize, short replication, long blockSize,
      Progressable progress) throws IOException {
    return view().createNonRecursive(f, permission, flags, bufferSize, replication, blockSize,
        progress);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    return view().append(f, bufferSize, progress);
  }

  @Override
  public boolean truncate(Path f, long newLength) throws IOException {
    return view().truncate(f, newLength);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    return view().rename(src, dst);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    return view().delete(f, recursive);
  }

  @Override
  public boolean mkdirs(Path dir) throws IOException {
    return view().mkdirs(dir);
  }

  @Override
  public boolean mkdirs(Path dir, FsPermission permission) throws IOException {
    return view().mkdirs(dir, permission);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return view().getFileStatus(f);
  }

  @Override
  public void access(Path path, FsAction mode) throws IOException {
    view().access(path, mode);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws FileNotFoundException, IOException {
    return view().listStatus(f);
  }

  @Override
  protected RemoteIterator<LocatedFileStatus> listLocatedStatus(Path f, PathFilter filter)
      throws FileNotFoundException, IOException {
    return view().listLocatedStatus(f, filter);
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
      throws IOException {
    return view().getFileBlockLocations(file, start, len);
  }

  @Override
  public FileChecksum getFileChecksum(Path f) throws IOException {
    return view().getFileChecksum(f);
  }

  @Override
  public FileChecksum getFileChecksum(Path f, long length) throws IOException {
    return view().getFileChecksum(f, length);
  }

  @Override
  public ContentSummary getContentSummary(Path f) throws IOException {
    return view().getContentSummary(f);
  }

  @Override
  public QuotaUsage getQuotaUsage(Path f) throws IOException {
    return view().getQuotaUsage(f);
  }

  @Override
  public void setOwner(Path f, String username, String groupname) throws IOException {
    view().setOwner(f, username, groupname);
  }

  @Override
  public void setPermission(Path f, FsPermission permission) throws IOException {
    view().setPermission(f, permission);
  }

  @Override
  public boolean setReplication(Path f, short replication) throws IOException {
    return view().setReplication(f, replication);
  }

  @Override
  public void setTimes(Path f, long mtime, long atime) throws IOException {
    view().setTimes(f, mtime, atime);
  }

  @Override
  public void modifyAclEntries(Path path, List<AclEntry> aclSpec) throws IOException {
    view().modifyAclEntries(path, aclSpec);
  }

  @Override
  public void removeAclEntries(Path path, List<AclEntry> aclSpec) throws IOException {
    view().removeAclEntries(path, aclSpec);
  }

  @Override
  public void removeDefaultAcl(Path path) throws IOException {
    view().removeDefaultAcl(path);
  }

  @Override
  public void removeAcl(Path path) throws IOException {
    view().removeAcl(path);
  }

  @Override
  public void setAcl(Path path, List<AclEntry> aclSpec) throws IOException {
    view().setAcl(path, aclSpec);
  }

  @Override
  public AclStatus getAclStatus(Path path) throws IOException {
    return view().getAclStatus(path);
  }

  @Override
  public void setXAttr(Path path, String name, byte[] value, EnumSet<XAttrSetFlag> flag)
      throws IOException {
    view().setXAttr(path, name, value, flag);
  }

  @Override
  public byte[] getXAttr(Path path, String name) throws IOException {
    return view().getXAttr(path, name);
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path path) throws IOException {
    return view().getXAttrs(path);
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path path, List<String> names) throws IOException {
    return view().getXAttrs(path, names);
  }

  @Override
  public List<String> listXAttrs(Path path) throws IOException {
    return view().listXAttrs(path);
  }

  @Override
  public void removeXAttr(Path path, String name) throws IOException {
    view().removeXAttr(path, name);
  }

  @Override
  public Path createSnapshot(Path path, String snapshotName) throws IOException {
    return view().createSnapshot(path, snapshotName);
  }

  @Override
  public void renameSnapshot(Path path, String snapshotOldName, String snapshotNewName)
      throws IOException {
    view().renameSnapshot(path, snapshotOldName, snapshotNewName);
  }

  @Override
  public void deleteSnapshot(Path path, String snapshotName) throws IOException {
    view().deleteSnapshot(path, snapshotName);
  }

  @Override
  public void satisfyStoragePolicy(Path src) throws IOException {
    view().satisfyStoragePolicy(src);
  }

  @Override
  public void setStoragePolicy(Path src, String policyName) throws IOException {
    view().setStoragePolicy(src, policyName);
  }

  @Override
  public void unsetStoragePolicy(Path src) throws IOException {
    view().unsetStoragePolicy(src);
  }

  @Override
  public BlockStoragePolicySpi getStoragePolicy(Path src) throws IOException {
    return view().getStoragePolicy(src);
  }

  @Override
  public Collection<? extends BlockStoragePolicySpi> getAllStoragePolicies()
      throws IOException {
    return view().getAllStoragePolicies();
  }

  @Override
  public long getDefaultBlockSize() {
    return view().getDefaultBlockSize();
  }

  @Override
  public long getDefaultBlockSize(Path f) {
    return view().getDefaultBlockSize(f);
  }

  @Override
  public short getDefaultReplication() {
    return view().getDefaultReplication();
  }

  @Override
  public short getDefaultReplication(Path f) {
    return view().getDefaultReplication(f);
  }

  @Override
  public FsServerDefaults getServerDefaults() throws IOException {
    return view().getServerDefaults();
  }

  @Override
  public FsServerDefaults getServerDefaults(Path f) throws IOException {
    return view().getServerDefaults(f);
  }

  @Override
  public FsStatus getStatus() throws IOException {
    return view().getStatus();
  }

  @Override
  public FsStatus getStatus(Path p) throws IOException {
    return view().getStatus(p);
  }

  @Override
  public long getUsed() throws IOException {
    return view().getUsed();
  }

  @Override
  public Path getTrashRoot(Path path) {
    return view().getTrashRoot(path);
  }

  @Override
  public Collection<FileStatus> getTrashRoots(boolean allUsers) {
    return view().getTrashRoots(allUsers);
  }

  @Override
  public Path getLinkTarget(Path path) throws IOException {
    return view().getLinkTarget(path);
  }

  @Override
  public Path getEnclosingRoot(Path path) throws IOException {
    return view().getEnclosingRoot(path);
  }

  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    return view().hasPathCapability(path, capability);
  }

  /** The partitions' clients, for delegation tokens ({@code addDelegationTokens}). */
  @Override
  public FileSystem[] getChildFileSystems() {
    return view().getChildFileSystems();
  }
}
