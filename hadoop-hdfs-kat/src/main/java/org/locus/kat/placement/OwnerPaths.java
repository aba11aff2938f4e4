package org.locus.kat.placement;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * How a KAT dataset records ownership in the namespace itself:
 *
 * <pre>
 *   DATASET/_kat/placement.properties     the placement map (see {@link PlacementMap})
 *   DATASET/owner=HOST/bucket-NNNNN       every record of bucket NNNNN, first replica on HOST
 * </pre>
 *
 * A path component {@code owner=HOST} (Hive-style) marks everything below it as owned by HOST
 * &mdash; but only inside a declared dataset: the dataset root carries the extended attribute
 * {@link #DATASET_XATTR}. The NameNode's placement policy reads the owner from the path and the
 * declaration from the root's inode, so any writer &mdash; an import, a job writing back under
 * the dataset, a copy &mdash; gets the owner as a replica without passing favored nodes, and
 * without the NameNode reading any file.
 */
public final class OwnerPaths {
  /** Directory of a dataset's metadata; a leading underscore hides it from input formats. */
  public static final String META_DIR = "_kat";
  public static final String PLACEMENT_FILE = "placement.properties";
  /** Extended attribute on a dataset root that declares it a KAT dataset; value "1". */
  public static final String DATASET_XATTR = "user.locus.kat.dataset";
  private static final String OWNER_PREFIX = "owner=";
  private static final Pattern OWNER_COMPONENT = Pattern.compile("(?:^|/)owner=([^/]+)(?:/|$)");
  private static final Pattern BUCKET_FILE = Pattern.compile("bucket-(\\d{5})");

  private OwnerPaths() {
  }

  /**
   * Creates {@code dataset} if needed and declares it a KAT dataset, so the NameNode places files
   * under its {@code owner=HOST} directories on HOST. Idempotent.
   */
  public static void declare(FileSystem fs, Path dataset) throws IOException {
    fs.mkdirs(dataset);
    fs.setXAttr(dataset, DATASET_XATTR, "1".getBytes(StandardCharsets.UTF_8));
  }

  public static Path ownerDir(Path dataset, String host) {
    return new Path(dataset, OWNER_PREFIX + host);
  }

  public static Path bucketFile(Path dataset, String host, int bucket) {
    return new Path(ownerDir(dataset, host), String.format("bucket-%05d", bucket));
  }

  public static Path placementFile(Path dataset) {
    return new Path(new Path(dataset, META_DIR), PLACEMENT_FILE);
  }

  /** @return the owner named by the last {@code owner=HOST} component of a path, if any */
  public static Optional<String> ownerOf(String path) {
    Matcher m = OWNER_COMPONENT.matcher(path);
    String owner = null;
    int from = 0;
    while (m.find(from)) {
      owner = m.group(1);
      from = m.end(1);
    }
    return Optional.ofNullable(owner);
  }

  /**
   * @return the dataset root of a path with an {@code owner=HOST} component: everything before
   *     the last such component ({@code /} if it is the first)
   */
  public static Optional<String> datasetOf(String path) {
    Matcher m = OWNER_COMPONENT.matcher(path);
    int start = -1;
    int from = 0;
    while (m.find(from)) {
      start = m.start(1) - OWNER_PREFIX.length();
      from = m.end(1);
    }
    if (start < 0) {
      return Optional.empty();
    }
    String root = path.substring(0, start);
    while (root.length() > 1 && root.endsWith("/")) {
      root = root.substring(0, root.length() - 1);
    }
    return Optional.of(root.isEmpty() ? "/" : root);
  }

  /** @return the bucket number of a {@code bucket-NNNNN} file name, if it is one */
  public static Optional<Integer> bucketOf(Path file) {
    Matcher m = BUCKET_FILE.matcher(file.getName());
    return m.matches() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }
}
