package org.locus.ndcoupling.client;

import java.io.IOException;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.viewfs.ConfigUtil;
import org.apache.hadoop.fs.viewfs.Constants;
import org.apache.hadoop.fs.viewfs.ViewFileSystem;
import org.apache.hadoop.util.ReflectionUtils;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * The coupled namespace as one file system, {@code locus://ENTRY/}: the client names any node
 * as its entry point (its partition's nameservice, {@code locus://ns2/}, or its NameNode's
 * address, {@code locus://host:8020/}), learns the mount table from that node through a
 * {@link PartitionResolver}, and from then on sends every call straight to the partition that
 * owns the path (no hop through the entry node).
 *
 * <p>The mechanism is Hadoop's own client-side mount table, {@link ViewFileSystem}: each mount
 * point {@code /d -> nsK} becomes a link to {@code hdfs://nsK/d} and {@code /} the link
 * fallback to the root partition, with mount points shown as directories (so {@code ls -R}
 * descends into them) and renames allowed between mount points of one partition. What this
 * class adds: the table comes from the entry node (not from the client's configuration), and a
 * rename across partitions is refused up front naming both partitions
 * ({@link CrossPartitionRenameException}).
 *
 * <p>A file system reads the table when it is created; a changed table reaches every client
 * created after the change (each {@code hdfs dfs} command, each task JVM,
 * {@code FileSystem.newInstance}), not instances already cached in a running JVM.
 */
public class LocusFileSystem extends ViewFileSystem {
  /** The URI scheme, registered as {@code fs.locus.impl} and through the service loader. */
  public static final String SCHEME = "locus";

  private MountTable table;
  private URI entry;

  public LocusFileSystem() throws IOException {
    super();
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    String authority = uri.getAuthority();
    if (authority == null || authority.isEmpty()) {
      throw new IOException("a locus:// URI names its entry node: locus://ns2/ (a partition)"
          + " or locus://HOST:PORT/ (its NameNode), got " + uri);
    }
    entry = URI.create("hdfs://" + authority);
    try (PartitionResolver resolver = ReflectionUtils.newInstance(conf.getClass(
        NdCouplingConfigKeys.MOUNT_RESOLVER, StoredMountTableResolver.class,
        PartitionResolver.class), conf)) {
      table = resolver.load(entry, conf);
    }
    super.initialize(uri, viewConfiguration(authority, table, conf));
  }

  /**
   * @return a copy of {@code conf} with {@code table} as ViewFs's mount table named
   *     {@code name}; the caller's configuration is left alone
   */
  static Configuration viewConfiguration(String name, MountTable table, Configuration conf) {
    Configuration view = new Configuration(conf);
    String prefix = Constants.CONFIG_VIEWFS_PREFIX + "." + name + ".";
    for (String key : conf.getPropsWithPrefix(prefix).keySet()) {
      view.unset(prefix + key);
    }
    table.mounts().forEach((path, partition) -> {
      if (path.equals("/")) {
        ConfigUtil.addLinkFallback(view, name, URI.create("hdfs://" + partition + "/"));
      } else {
        ConfigUtil.addLink(view, name, path, URI.create("hdfs://" + partition + path));
      }
    });
    view.setBoolean(Constants.CONFIG_VIEWFS_IGNORE_PORT_IN_MOUNT_TABLE_NAME, false);
    view.setBoolean(Constants.CONFIG_VIEWFS_MOUNT_LINKS_AS_SYMLINKS, false);
    // ViewFileSystem.RenameStrategy (package-private): one partition, any of its mount points
    view.set(Constants.CONFIG_VIEWFS_RENAME_STRATEGY, "SAME_FILESYSTEM_ACROSS_MOUNTPOINT");
    return view;
  }

  /** @return the mount table this file system was built from */
  public MountTable mountTable() {
    return table;
  }

  /** @return the entry node's partition this file system learnt its table from */
  public URI entry() {
    return entry;
  }

  /** @return the partition that owns {@code path} */
  public String partitionOf(Path path) {
    return table.partitionOf(pathOf(path));
  }

  private String pathOf(Path path) {
    return makeQualified(path).toUri().getPath();
  }

  /**
   * Refuses a rename between partitions before anything changes; within one partition (also
   * between two of its mount points) it is the partition's own atomic rename.
   */
  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    String from = pathOf(src);
    String to = pathOf(dst);
    // A rename into an existing directory lands at dst/name; below / (or another directory
    // holding mount points) that name may be a mount point of its own partition.
    String landing = to;
    if (!table.mountPointsBelow(to).isEmpty() && src.getName().length() > 0
        && exists(dst)) {
      landing = (to.equals("/") ? "" : to) + "/" + src.getName();
    }
    String fromPartition = table.partitionOf(from);
    String toPartition = table.partitionOf(landing);
    if (!fromPartition.equals(toPartition)) {
      throw new CrossPartitionRenameException(from, table.mountPointOf(from), fromPartition,
          landing, table.mountPointOf(landing), toPartition);
    }
    return super.rename(src, dst);
  }

  /**
   * The view's own directories ({@code /} and the other directories above mount points) have
   * no capabilities. Hadoop 3.5.0's ViewFileSystem asks them through FileSystem's default, which
   * qualifies the path with their working directory and fails with "getWorkingDir should not
   * have been called"; {@code hdfs dfs -ls -R /} asks exactly that.
   */
  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    String p = pathOf(path);
    if (!table.mountPointsBelow(p).isEmpty()) {
      return false;
    }
    return super.hasPathCapability(path, capability);
  }
}
