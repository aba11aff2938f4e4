package org.locus.ndcoupling.fatbtree.client;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.impl.PathCapabilitiesSupport;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.util.Progressable;
import org.locus.ndcoupling.client.CrossPartitionRenameException;
import org.locus.ndcoupling.client.PartitionFileSystems;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespace of an FBB cluster (seed 004 §4.2.2; issue 43 item 3) as one file system,
 * {@code locusfbt://nsK/}: every path is resolved through the Fat-Btree index at entry node
 * {@code K} (the index node inside partition {@code nsK}'s NameNode; the node descends through
 * its copies of the upper pages and forwards at most once, to the leaf's node), and the
 * partition the index names serves it through an ordinary {@code hdfs://nsP} client. Index node
 * ids are partition numbers, so the index's owner of a path <i>is</i> its partition.
 *
 * <p><b>Where a path is.</b> A path's partition is its own index entry's, else its nearest
 * registered ancestor's; {@code /} is partition {@value #ROOT_PARTITION} unless the index has an
 * entry for it ({@link FatBtreePartitionResolver#partitionOf}). A path keeps its name on its
 * partition: {@code /data/x} on partition 2 is {@code hdfs://ns2/data/x}.
 *
 * <ul>
 * <li>{@code getFileStatus}, {@code open}, {@code append}, {@code truncate}, the setters, block
 *   locations and checksums: resolved, then sent to that partition. One client per partition
 *   ({@link PartitionFileSystems}), closed with this file system.
 * <li>{@code create}, {@code createNonRecursive}, {@code mkdirs}: the new path goes where it
 *   resolves, which for a path without an entry is its parent's partition (nearest registered
 *   ancestor). It is created there (missing parents with it, on that partition), then
 *   registered, together with every ancestor between it and the registered one (so a listing
 *   of each ancestor names it). A create that fails registers nothing. A register that fails
 *   after the create deletes what the create made (the file, or the topmost parent it made) and
 *   the entries put so far, and rethrows. A client that dies between the two steps leaves a file
 *   with no entry of its own: it still resolves to its parent's partition, where it is, and
 *   {@code listStatus} shows it (below); only the index's own listing ({@link
 *   FatBtreePartitionResolver#list}) lacks it.
 * <li>{@code listStatus(dir)}: the index's direct entries of {@code dir} (its leaves merged in
 *   key order across nodes) grouped by partition, and {@code dir} listed once on each partition
 *   involved, the names each partition owns picked from its listing; plus, from the listing of
 *   {@code dir}'s own partition, the names with no entry of their own, since they resolve there
 *   too. So {@code listStatus} and {@code getFileStatus} always agree, also after a client died
 *   between a create and its register or after files were written with a plain {@code hdfs://}
 *   client. A name whose entry names a partition that lacks it (a stale entry) is left out, as
 *   {@code getFileStatus} would not find it. Name order, paths qualified to this file system. A
 *   missing {@code dir} is a {@link FileNotFoundException}; a file lists itself.
 * <li>{@code delete}: on the owning partition; if it deleted, a recursive delete also deletes
 *   the path on every other partition holding an entry below it (a subtree assigned elsewhere),
 *   then every entry at and below the path is unregistered. A non-recursive delete of a
 *   directory whose entries are all on other partitions is refused as non-empty.
 * <li>{@code rename}: within one partition, that partition's atomic rename, then the index
 *   entries of the path and its subtree moved (the new keys registered, then the old ones
 *   unregistered). A rename whose source and target (or a path below the source) resolve to
 *   different partitions is refused before anything changes with a
 *   {@link CrossPartitionRenameException} naming both.
 * </ul>
 *
 * <p>The index and the partitions are not one transaction, and this client holds no lock
 * across the two: between a partition's change and the index's, another client sees the
 * partition's state through {@code getFileStatus} and {@code listStatus}. A client that dies
 * after a delete or rename on its partition leaves stale entries (left out of listings, found
 * missing by {@code getFileStatus}); one that dies before registering leaves a file without an
 * entry (above). Delegation tokens come from the partitions' clients
 * ({@link #getChildFileSystems}); this file system has none of its own.
 *
 * <p>Found for its scheme through the service loader (no {@code fs.locusfbt.impl} needed); needs
 * {@code locus.ndcoupling.index.peers} (the index servers) and the partitions' nameservices
 * {@code ns1..nsN} in {@code dfs.nameservices}, as every site file of a
 * {@code --metadata fatbtree} cluster has them.
 */
public class FatBtreeFileSystem extends FileSystem {
  static {
    // A daemon that never touched HDFS's own classes (the JobHistory server opening its done
    // directory through FileContext) has not yet made hdfs-site.xml a default resource, and
    // would read no dfs.nameservices. Loading it here, as DistributedFileSystem does, also
    // reloads every Configuration already made, the caller's included.
    HdfsConfiguration.init();
  }

  /** The URI scheme, registered through the service loader. */
  public static final String SCHEME = "locusfbt";
  /** The partition of {@code /} while the index holds no entry for it. */
  public static final int ROOT_PARTITION = 1;

  private static final Logger LOG = LoggerFactory.getLogger(FatBtreeFileSystem.class);
  private static final Pattern ENTRY = Pattern.compile("ns([1-9][0-9]*)");
  /**
   * The path capabilities whose operations this file system passes to the path's partition,
   * so the partition answers for them; it passes on no others (concat, snapshots, ACLs,
   * extended attributes, path handles ...), whatever HDFS offers.
   */
  private static final Set<String> PARTITION_CAPABILITIES = Set.of(
      CommonPathCapabilities.FS_APPEND, CommonPathCapabilities.FS_TRUNCATE,
      CommonPathCapabilities.FS_CHECKSUMS, CommonPathCapabilities.FS_PERMISSIONS);

  private URI uri;
  private int entryNode;
  private Set<String> nameservices;
  private FatBtreePartitionResolver resolver;
  private PartitionFileSystems partitions;
  private volatile Path workingDir;

  /**
   * Where a path resolves: the partition, the index key that decided it ({@code null}: none,
   * so {@value #ROOT_PARTITION}), and the ancestors between the path and that key that have no
   * entry of their own, top-down.
   */
  private record Placement(int partition, String decidedBy, boolean ownEntry,
      List<String> unregistered) {
    String why() {
      return decidedBy == null ? "no index entry at or above it: / is partition "
          + ROOT_PARTITION : "index entry " + decidedBy;
    }
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    String authority = name.getAuthority();
    Matcher m = ENTRY.matcher(authority == null ? "" : authority.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IOException("a " + SCHEME + ":// URI names its entry node by its partition,"
          + " " + SCHEME + "://nsK/ for index node K inside partition nsK's NameNode, got "
          + name);
    }
    entryNode = Integer.parseInt(m.group(1));
    uri = URI.create(SCHEME + "://ns" + entryNode);
    nameservices = new TreeSet<>(conf.getTrimmedStringCollection("dfs.nameservices"));
    partitions = new PartitionFileSystems();
    resolver = FatBtreePartitionResolver.connect(conf, entryNode);
    workingDir = getHomeDirectory();
  }

  @Override
  public URI getUri() {
    return uri;
  }

  /** @return the index node (= partition number) this file system resolves paths at */
  public int entryNode() {
    return entryNode;
  }

  /** @return the partition that serves {@code path} (it need not exist) */
  public int partitionOf(Path path) throws IOException {
    return place(pathOf(path)).partition();
  }

  /**
   * Gives the directory {@code dir} and everything created below it later to
   * {@code partition}: creates its parent through this file system (registering what is
   * missing where it belongs), creates {@code dir} on the partition and assigns its subtree
   * there in the index ({@link FatBtreePartitionResolver#assignSubtree}: its leaves move to
   * that partition's index node). An assignment moves names, not data: a directory that holds
   * anything on another partition, or a file, is refused, nothing changed.
   */
  public void assignSubtree(Path dir, int partition) throws IOException {
    String path = pathOf(dir);
    FileSystem target = partition(partition);
    Placement at = place(path);
    if (at.partition() != partition) {
      FileStatus status = null;
      try {
        status = getFileStatus(dir);
      } catch (FileNotFoundException e) {
        // nothing to hide: the directory is new
      }
      if (status != null && !status.isDirectory()) {
        throw new IOException("cannot assign " + path + " to partition " + nameservice(partition)
            + ": it is a file on partition " + nameservice(at.partition()));
      }
      if (status != null && listStatus(dir).length > 0) {
        throw new IOException("cannot assign " + path + " to partition " + nameservice(partition)
            + ": it holds entries on partition " + nameservice(at.partition()) + " that the"
            + " assignment would hide; an assignment moves names, not data: move them or assign"
            + " an empty directory; nothing was changed");
      }
    }
    if (!path.equals("/")) {
      mkdirs(new Path(parent(path)));
    }
    target.mkdirs(onPartition(partition, path));
    resolver.assignSubtree(path, partition);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    return partition(p).open(onPartition(p, path), bufferSize);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress)
      throws IOException {
    String path = pathOf(f);
    Placement at = place(path);
    FileSystem fs = partition(at.partition());
    String firstMade = firstMissing(fs, at.partition(), at.unregistered());
    FSDataOutputStream out = fs.create(onPartition(at.partition(), path), permission, overwrite,
        bufferSize, replication, blockSize, progress);
    registerCreated(at, path, out, firstMade == null ? path : firstMade);
    return out;
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
      EnumSet<CreateFlag> flags, int bufferSize, short replication, long blockSize,
      Progressable progress) throws IOException {
    String path = pathOf(f);
    Placement at = place(path);
    // the parent exists on the partition (or this fails): nothing above the file is made
    FSDataOutputStream out = partition(at.partition()).createNonRecursive(
        onPartition(at.partition(), path), permission, flags, bufferSize, replication,
        blockSize, progress);
    registerCreated(at, path, out, path);
    return out;
  }

  /** Registers a created file; if that fails, closes its stream, undoes the create, rethrows. */
  private void registerCreated(Placement at, String path, FSDataOutputStream out,
      String made) throws IOException {
    try {
      register(at, path);
    } catch (IOException | RuntimeException e) {
      IOUtils.cleanupWithLogger(LOG, out);
      undoCreate(at.partition(), made, e);
      throw e;
    }
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    String path = pathOf(f);
    Placement at = place(path);
    FileSystem fs = partition(at.partition());
    Path there = onPartition(at.partition(), path);
    if (at.ownEntry() || path.equals("/")) {
      return fs.mkdirs(there, permission);
    }
    List<String> made = new ArrayList<>(at.unregistered());
    made.add(path);
    String firstMade = firstMissing(fs, at.partition(), made);
    if (!fs.mkdirs(there, permission)) {
      return false;
    }
    try {
      register(at, path);
    } catch (IOException | RuntimeException e) {
      if (firstMade != null) {
        undoCreate(at.partition(), firstMade, e);
      }
      throw e;
    }
    return true;
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    return partition(p).append(onPartition(p, path), bufferSize, progress);
  }

  @Override
  public boolean truncate(Path f, long newLength) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    return partition(p).truncate(onPartition(p, path), newLength);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    return here(partition(p).getFileStatus(onPartition(p, path)), path);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws FileNotFoundException, IOException {
    String dir = pathOf(f);
    int owner = place(dir).partition();
    FileStatus[] own = partition(owner).listStatus(onPartition(owner, dir));
    if (own.length == 1 && !own[0].isDirectory()
        && own[0].getPath().toUri().getPath().equals(dir)) {
      return new FileStatus[] {here(own[0], dir)}; // a file lists itself
    }
    Map<String, Integer> entries = new HashMap<>();
    for (IndexEntry e : resolver.list(dir)) {
      entries.put(nameOf(e.key().path()), e.owner());
    }
    TreeMap<String, FileStatus> merged = new TreeMap<>();
    pick(merged, dir, own, name -> {
      Integer p = entries.get(name);
      return p == null || p == owner;
    });
    for (int p : new TreeSet<>(entries.values())) {
      if (p == owner) {
        continue;
      }
      FileStatus[] there;
      try {
        there = partition(p).listStatus(onPartition(p, dir));
      } catch (FileNotFoundException e) {
        continue; // only stale entries name this partition here
      }
      int partition = p;
      pick(merged, dir, there, name -> Objects.equals(entries.get(name), partition));
    }
    return merged.values().toArray(new FileStatus[0]);
  }

  private void pick(Map<String, FileStatus> into, String dir, FileStatus[] listing,
      Predicate<String> owned) {
    for (FileStatus s : listing) {
      String name = s.getPath().getName();
      if (owned.test(name)) {
        into.put(name, here(s, childOf(dir, name)));
      }
    }
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    String path = pathOf(f);
    int owner = place(path).partition();
    List<IndexEntry> below = resolver.subtree(path);
    Set<Integer> elsewhere = new TreeSet<>();
    for (IndexEntry e : below) {
      if (e.owner() != owner) {
        elsewhere.add(e.owner());
      }
    }
    if (!recursive && !elsewhere.isEmpty() && listStatus(f).length > 0) {
      throw new PathIsNotEmptyDirectoryException(path + " holds entries on partitions "
          + elsewhere.stream().map(FatBtreeFileSystem::nameservice).toList());
    }
    if (!partition(owner).delete(onPartition(owner, path), recursive)) {
      return false;
    }
    IOException failed = null;
    for (int p : elsewhere) {
      try {
        partition(p).delete(onPartition(p, path), true);
      } catch (IOException e) {
        failed = failed == null ? new IOException("deleted " + path + " on partition "
            + nameservice(owner) + " but not its part on partition " + nameservice(p) + " ("
            + e.getMessage() + "): remove hdfs://" + nameservice(p) + path + " by hand", e)
            : failed;
      }
    }
    for (IndexEntry e : below) {
      resolver.unregister(e.key().path());
    }
    if (failed != null) {
      throw failed;
    }
    return true;
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    String from = pathOf(src);
    String to = pathOf(dst);
    Placement source = place(from);
    FileSystem fs = partition(source.partition());
    if (from.equals("/")) {
      return fs.rename(onPartition(source.partition(), from),
          onPartition(source.partition(), to));
    }
    String target = to;
    try {
      if (getFileStatus(dst).isDirectory()) {
        target = childOf(to, nameOf(from));
      }
    } catch (FileNotFoundException e) {
      // the rename names its target itself
    }
    Placement destination = place(target);
    if (destination.partition() != source.partition()) {
      throw new CrossPartitionRenameException(from, to, from, nameservice(source.partition()),
          source.why(), target, nameservice(destination.partition()), destination.why());
    }
    List<IndexEntry> below = resolver.subtree(from);
    for (IndexEntry e : below) {
      if (e.owner() != source.partition()) {
        throw new CrossPartitionRenameException(from, to, from,
            nameservice(source.partition()), source.why(), e.key().path(),
            nameservice(e.owner()), "index entry " + e.key().path() + " below it");
      }
    }
    if (!fs.rename(onPartition(source.partition(), from),
        onPartition(source.partition(), to))) {
      return false;
    }
    if (!target.equals(from)) {
      moveEntries(from, target, below, source.partition());
    }
    return true;
  }

  /** After a partition's rename: the entries at and below {@code from} under {@code to}. */
  private void moveEntries(String from, String to, List<IndexEntry> below, int partition)
      throws IOException {
    try {
      for (IndexEntry e : below) {
        resolver.register(to + e.key().path().substring(from.length()), e.owner());
      }
      for (IndexEntry e : below) {
        resolver.unregister(e.key().path());
      }
    } catch (IOException | RuntimeException e) {
      throw new IOException("renamed " + from + " to " + to + " on partition "
          + nameservice(partition) + " but did not move all its " + below.size() + " index"
          + " entries (" + e.getMessage() + "); the renamed paths resolve through their parent"
          + " on the same partition, entries left under " + from + " are stale", e);
    }
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = makeQualified(dir);
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public void setOwner(Path f, String username, String groupname) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    partition(p).setOwner(onPartition(p, path), username, groupname);
  }

  @Override
  public void setPermission(Path f, FsPermission permission) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    partition(p).setPermission(onPartition(p, path), permission);
  }

  @Override
  public boolean setReplication(Path f, short replication) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    return partition(p).setReplication(onPartition(p, path), replication);
  }

  @Override
  public void setTimes(Path f, long mtime, long atime) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    partition(p).setTimes(onPartition(p, path), mtime, atime);
  }

  @Override
  public FileChecksum getFileChecksum(Path f) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    return partition(p).getFileChecksum(onPartition(p, path));
  }

  @Override
  public FileChecksum getFileChecksum(Path f, long length) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    return partition(p).getFileChecksum(onPartition(p, path), length);
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
      throws IOException {
    if (file == null) {
      return null;
    }
    String path = pathOf(file.getPath());
    int p = place(path).partition();
    return partition(p).getFileBlockLocations(onPartition(p, path), start, len);
  }

  @Override
  public FsServerDefaults getServerDefaults(Path f) throws IOException {
    String path = pathOf(f);
    int p = place(path).partition();
    return partition(p).getServerDefaults(onPartition(p, path));
  }

  @Override
  public boolean hasPathCapability(Path f, String capability) throws IOException {
    String asked = PathCapabilitiesSupport.validatePathCapabilityArgs(makeQualified(f),
        capability);
    if (!PARTITION_CAPABILITIES.contains(asked)) {
      return super.hasPathCapability(f, capability);
    }
    String path = pathOf(f);
    int p = place(path).partition();
    return partition(p).hasPathCapability(onPartition(p, path), asked);
  }

  /** The partitions' block size ({@code dfs.blocksize}), as their clients use it. */
  @Override
  public long getDefaultBlockSize() {
    return getConf().getLongBytes(HdfsClientConfigKeys.DFS_BLOCK_SIZE_KEY,
        HdfsClientConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
  }

  /** The partitions' replication ({@code dfs.replication}), as their clients use it. */
  @Override
  public short getDefaultReplication() {
    return (short) getConf().getInt(HdfsClientConfigKeys.DFS_REPLICATION_KEY,
        HdfsClientConfigKeys.DFS_REPLICATION_DEFAULT);
  }

  /** None of its own: tokens are the partitions' ({@link #getChildFileSystems}). */
  @Override
  public String getCanonicalServiceName() {
    return null;
  }

  /** The partitions' clients opened so far. */
  @Override
  public FileSystem[] getChildFileSystems() {
    return partitions.opened().toArray(new FileSystem[0]);
  }

  @Override
  public void close() throws IOException {
    try {
      super.close(); // deletes what deleteOnExit named, while the partitions are still open
    } finally {
      IOUtils.cleanupWithLogger(LOG, resolver);
      if (partitions != null) {
        partitions.close();
      }
    }
  }

  /**
   * Resolves {@code path} by walking up from it, one index lookup per level until an entry is
   * found (as {@link FatBtreePartitionResolver#partitionOf}), remembering the levels without.
   */
  private Placement place(String path) throws IOException {
    OptionalInt own = resolver.entryOf(path);
    if (own.isPresent()) {
      return new Placement(own.getAsInt(), path, true, List.of());
    }
    Deque<String> unregistered = new ArrayDeque<>();
    String a = path;
    while (!a.equals("/")) {
      a = parent(a);
      OptionalInt entry = resolver.entryOf(a);
      if (entry.isPresent()) {
        return new Placement(entry.getAsInt(), a, false, List.copyOf(unregistered));
      }
      if (!a.equals("/")) {
        unregistered.addFirst(a);
      }
    }
    return new Placement(ROOT_PARTITION, null, false, List.copyOf(unregistered));
  }

  /**
   * Registers a path just made on its partition and the ancestors without an entry above it;
   * if one fails, unregisters those it put and rethrows.
   */
  private void register(Placement at, String path) throws IOException {
    List<String> put = new ArrayList<>();
    try {
      for (String a : at.unregistered()) {
        resolver.register(a, at.partition());
        put.add(a);
      }
      if (!at.ownEntry() && !path.equals("/")) {
        resolver.register(path, at.partition());
      }
    } catch (IOException | RuntimeException e) {
      for (String a : put) {
        try {
          resolver.unregister(a);
        } catch (IOException | RuntimeException again) {
          e.addSuppressed(again);
        }
      }
      throw e;
    }
  }

  /** Deletes {@code made} (what a create or mkdirs made) after its register failed. */
  private void undoCreate(int partition, String made, Exception cause) {
    try {
      partition(partition).delete(onPartition(partition, made), true);
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
      LOG.error("{} was created on partition {} but neither registered in the Fat-Btree index"
          + " nor deleted again ({}); it resolves through its parent, remove it by hand if"
          + " unwanted", made, nameservice(partition), e.getMessage());
    }
  }

  /** The first of {@code paths} (top-down) missing on the partition, or null if none is. */
  private String firstMissing(FileSystem fs, int partition, List<String> paths)
      throws IOException {
    for (String p : paths) {
      if (!fs.exists(onPartition(partition, p))) {
        return p;
      }
    }
    return null;
  }

  /** Partition {@code p}'s client, refused when the configuration does not name it. */
  private FileSystem partition(int p) throws IOException {
    String ns = nameservice(p);
    if (!nameservices.isEmpty() && !nameservices.contains(ns)) {
      throw new IOException("partition " + p + " has no nameservice: dfs.nameservices lists "
          + nameservices + ", not " + ns + " (the index names partitions by number, the"
          + " cluster's site files name partition K nsK)");
    }
    return partitions.get(URI.create("hdfs://" + ns), getConf());
  }

  private static String nameservice(int partition) {
    return "ns" + partition;
  }

  private static Path onPartition(int partition, String path) {
    return new Path("hdfs", nameservice(partition), path);
  }

  /** The absolute path {@code f} names in this namespace, checked to be of this file system. */
  private String pathOf(Path f) {
    String path = makeQualified(f).toUri().getPath();
    return path.isEmpty() ? "/" : path;
  }

  private FileStatus here(FileStatus status, String path) {
    status.setPath(new Path(uri.getScheme(), uri.getAuthority(), path));
    return status;
  }

  private static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
  }

  private static String nameOf(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static String childOf(String dir, String name) {
    return dir.equals("/") ? "/" + name : dir + "/" + name;
  }
}
