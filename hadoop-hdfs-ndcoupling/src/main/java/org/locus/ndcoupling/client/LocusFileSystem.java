package org.locus.ndcoupling.client;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.util.Time;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coupled namespace as one file system, {@code locus://ENTRY/}: the client names any node
 * as its entry point (its partition's nameservice, {@code locus://ns2/}, or its NameNode's
 * address, {@code locus://host:8020/}), learns the mount table from that node through a
 * {@link PartitionResolver}, and from then on sends every call straight to the partition that
 * owns the path (no hop through the entry node).
 *
 * <p>The mechanism is Hadoop's own client-side mount table, {@link ViewFileSystem}, built from
 * one version of the table as a {@link MountTableView}; this class sends every call to the view
 * of the version in force. What Locus adds: the table comes from the entry node (not from the
 * client's configuration), it follows changes while the client runs, and a rename across
 * partitions is refused up front naming both partitions ({@link CrossPartitionRenameException}).
 *
 * <p><b>A changed table reaches a running client.</b> A call that finds the last check older
 * than {@code locus.ndcoupling.mount.refresh-interval} (default 10 s) starts the next one on
 * this file system's checker thread and goes on with the table in force, so no call waits for
 * the entry node, and a client that keeps calling has a published change in force one interval
 * (and a round trip) after it at the latest. The check asks the resolver for the version alone (the stored resolver: one
 * listing of the entry's mount directory); only a changed version loads the table and builds a
 * new view, which replaces the old one in a volatile field once it is whole. Why a new view per
 * version rather than re-initialising this one: ViewFileSystem builds its mount tree in
 * {@code initialize} and then reads it unlocked from every call, so changing it in place would
 * let a call see half a table, and a rename its source under one table and its target under
 * another. A call reads the field once and uses that view throughout. The views share the
 * partitions' clients ({@link PartitionFileSystems}, owned by this file system and closed with
 * it), so a stream opened through the old view keeps working and the old view, dropped, leaves
 * nothing open. The working directory moves to the new view with it.
 *
 * <p>When the entry node cannot answer (down, or its table damaged or naming an unknown
 * partition) the client keeps the table in force, logs one warning, and checks again an
 * interval later; it logs again only once the entry node answers. {@link #refreshMountTable}
 * checks at once. A call that fails because its table is stale (a file the new table places on
 * another partition not found on the old one) is not retried: telling that from a file that is
 * not there would cost every miss a round trip to the entry node.
 */
public class LocusFileSystem extends FileSystem {
  static {
    // A daemon that never touched HDFS's own classes (the JobHistory server opening its done
    // directory through FileContext) has not yet made hdfs-site.xml a default resource, and
    // would read no dfs.nameservices. Loading it here, as DistributedFileSystem does, also
    // reloads every Configuration already made, the caller's included.
    HdfsConfiguration.init();
  }

  /** The URI scheme, registered as {@code fs.locus.impl} and through the service loader. */
  public static final String SCHEME = "locus";

  private static final Logger LOG = LoggerFactory.getLogger(LocusFileSystem.class);
  /** Seconds the checker thread waits idle before it ends; the next due check starts another. */
  private static final long CHECKER_IDLE_SECONDS = 60;

  private URI uri;
  private URI entry;
  private Configuration conf;
  /** Who created the file system: the checker thread asks and builds views as this user. */
  private UserGroupInformation ugi;
  private long refreshIntervalMs;
  private PartitionResolver resolver;
  private PartitionFileSystems partitions;
  private ThreadPoolExecutor checker;

  /** The view of the table in force: replaced whole by a check, never changed in place. */
  private volatile MountTableView view;
  /** {@link Time#monotonicNow} from which a call starts the next check. */
  private volatile long nextCheckMs;
  private final AtomicBoolean checkQueued = new AtomicBoolean();
  /** One check at a time; held while the entry node answers. */
  private final Object checkLock = new Object();
  /** A view's swap against a working-directory change; held for neither I/O nor a build. */
  private final Object swapLock = new Object();
  /** Whether the last check failed, so its warning is not repeated (guarded by checkLock). */
  private boolean entryFailing;
  private volatile boolean closed;

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public void initialize(URI name, Configuration configuration) throws IOException {
    super.initialize(name, configuration);
    setConf(configuration);
    conf = configuration;
    String authority = name.getAuthority();
    if (authority == null || authority.isEmpty()) {
      throw new IOException("a locus:// URI names its entry node: locus://ns2/ (a partition)"
          + " or locus://HOST:PORT/ (its NameNode), got " + name);
    }
    uri = URI.create(SCHEME + "://" + authority + "/");
    entry = URI.create("hdfs://" + authority);
    refreshIntervalMs = conf.getTimeDuration(NdCouplingConfigKeys.MOUNT_REFRESH_INTERVAL,
        NdCouplingConfigKeys.MOUNT_REFRESH_INTERVAL_DEFAULT, TimeUnit.MILLISECONDS);
    if (refreshIntervalMs < 0) {
      throw new IllegalArgumentException(NdCouplingConfigKeys.MOUNT_REFRESH_INTERVAL
          + " must be 0 (check at every call) or a positive duration such as 10s, got "
          + conf.get(NdCouplingConfigKeys.MOUNT_REFRESH_INTERVAL));
    }
    ugi = UserGroupInformation.getCurrentUser();
    partitions = new PartitionFileSystems();
    try {
      resolver = ReflectionUtils.newInstance(conf.getClass(
          NdCouplingConfigKeys.MOUNT_RESOLVER, StoredMountTableResolver.class,
          PartitionResolver.class), conf);
      view = MountTableView.of(uri, resolver.load(entry, conf), partitions, conf);
    } catch (IOException | RuntimeException e) {
      IOUtils.cleanupWithLogger(LOG, resolver, partitions);
      throw e;
    }
    nextCheckMs = Time.monotonicNow() + refreshIntervalMs;
    checker = new ThreadPoolExecutor(1, 1, CHECKER_IDLE_SECONDS, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), task -> {
          Thread thread = new Thread(task, "locus mount-table check " + uri);
          thread.setDaemon(true);
          return thread;
        });
    // an idle client (or one FileContext never closes) keeps no thread
    checker.allowCoreThreadTimeOut(true);
  }

  /** @return the view of the table in force, first starting a check if one is due */
  private MountTableView view() {
    if (Time.monotonicNow() >= nextCheckMs && !closed && checkQueued.compareAndSet(false, true)) {
      try {
        checker.execute(() -> {
          try {
            check();
          } finally {
            checkQueued.set(false);
          }
        });
      } catch (RejectedExecutionException e) {
        checkQueued.set(false); // closed meanwhile: no more checks
      }
    }
    return view;
  }

  /**
   * Asks the entry node for the table's version and, if it changed, loads the table and swaps
   * in a view of it.
   *
   * @return the view in force afterwards; the one before when the entry node cannot answer
   */
  private MountTableView check() {
    synchronized (checkLock) {
      MountTableView current = view;
      if (closed) {
        return current;
      }
      try {
        MountTable next = ugi.doAs((PrivilegedExceptionAction<MountTable>) () ->
            resolver.version(entry, conf) == current.table().version() ? null
                : resolver.load(entry, conf));
        if (next != null && !next.equals(current.table())) {
          MountTableView built = ugi.doAs((PrivilegedExceptionAction<MountTableView>) () ->
              MountTableView.of(uri, next, partitions, conf));
          synchronized (swapLock) {
            built.setWorkingDirectory(current.getWorkingDirectory());
            view = built;
          }
          LOG.info("{}: mount table version {} from entry node {} in force (was version {})",
              uri, next.version(), entry, current.table().version());
        }
        if (entryFailing) {
          entryFailing = false;
          LOG.info("{}: entry node {} answers again; mount table version {} in force", uri,
              entry, view.table().version());
        }
      } catch (IOException | RuntimeException e) {
        if (!closed && !entryFailing) {
          entryFailing = true;
          LOG.warn("{}: cannot check the mount table with entry node {} ({}); keeping version {}"
              + " and asking again every {} ms, warning again only after it answers", uri, entry,
              e.getMessage(), current.table().version(), refreshIntervalMs);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // close() stops the checker
      } finally {
        nextCheckMs = Time.monotonicNow() + refreshIntervalMs;
      }
      return view;
    }
  }

  /**
   * Asks the entry node now, whatever the refresh interval, and swaps in the table if its
   * version changed.
   *
   * @return the table in force afterwards: the one before when the entry node cannot answer
   *     (a warning says so, once until it answers again)
   */
  public MountTable refreshMountTable() {
    return check().table();
  }

  /** @return the mount table in force (its {@link MountTable#version} is the stored version) */
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
    closed = true;
    try {
      super.close(); // deletes what deleteOnExit named, through the partitions still open
    } finally {
      if (checker != null) {
        checker.shutdownNow(); // interrupts a check waiting for the entry node
      }
      // after the check in flight, so that no check asks a closed resolver
      synchronized (checkLock) {
        IOUtils.cleanupWithLogger(LOG, resolver);
      }
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
    synchronized (swapLock) { // else a swap under way could copy the old directory over it
      view().setWorkingDirectory(dir);
    }
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
