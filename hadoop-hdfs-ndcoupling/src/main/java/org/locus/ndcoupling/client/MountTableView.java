package org.locus.ndcoupling.client;

import java.io.IOException;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.viewfs.ConfigUtil;
import org.apache.hadoop.fs.viewfs.Constants;
import org.apache.hadoop.fs.viewfs.FsGetter;
import org.apache.hadoop.fs.viewfs.ViewFileSystem;

/**
 * One version of the mount table as Hadoop's own client-side mount table,
 * {@link ViewFileSystem}: each mount point {@code /d -> nsK} a link to {@code hdfs://nsK/d},
 * {@code /} the link fallback to the root partition, mount points shown as directories (so
 * {@code ls -R} descends into them), renames allowed between mount points of one partition.
 * Built whole from its table and never changed afterwards (besides its working directory);
 * {@link LocusFileSystem} sends each call to the view of the version in force.
 *
 * <p>What it adds to ViewFileSystem: a rename across partitions is refused up front naming
 * both ({@link CrossPartitionRenameException}), the view's own directories answer the
 * path-capability question, and the partitions' clients come from the LocusFileSystem's
 * {@link PartitionFileSystems}, so the view owns nothing that needs closing.
 */
final class MountTableView extends ViewFileSystem {
  private final MountTable table;
  private final PartitionFileSystems partitions;

  private MountTableView(MountTable table, PartitionFileSystems partitions) throws IOException {
    this.table = table;
    this.partitions = partitions;
  }

  /**
   * @param uri the {@code locus://ENTRY/} URI the view answers for
   * @param conf the client's configuration, left alone
   */
  static MountTableView of(URI uri, MountTable table, PartitionFileSystems partitions,
      Configuration conf) throws IOException {
    MountTableView view = new MountTableView(table, partitions);
    view.initialize(uri, viewConfiguration(uri.getAuthority(), table, conf));
    return view;
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
    // without its own cache ViewFileSystem asks fsGetter() for each partition's client
    view.setBoolean(Constants.CONFIG_VIEWFS_ENABLE_INNER_CACHE, false);
    return view;
  }

  @Override
  public String getScheme() {
    return LocusFileSystem.SCHEME;
  }

  @Override
  protected FsGetter fsGetter() {
    return partitions;
  }

  /** @return the table this view was built from */
  MountTable table() {
    return table;
  }

  /** @return the absolute path of {@code path} in the namespace, without scheme */
  String pathOf(Path path) {
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
    if (!table.mountPointsBelow(pathOf(path)).isEmpty()) {
      return false;
    }
    return super.hasPathCapability(path, capability);
  }
}
