package org.locus.ndcoupling.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;

/**
 * Tells a {@code locus://} client which partition owns each subtree of the coupled namespace,
 * as the entry node the client named knows it. The client builds its view from the answer and
 * then goes to each owner directly.
 *
 * <p>Lifecycle: each {@link LocusFileSystem} makes its own resolver (a public no-argument
 * constructor; {@code setConf} first if it is {@code Configurable}), asks {@link #load} once
 * when it is created, then {@link #version} every {@code locus.ndcoupling.mount.refresh-interval}
 * and {@link #load} again only when the version changed. It asks from one thread at a time and
 * closes the resolver when it is closed itself, so a resolver may keep a connection to the entry
 * node open between questions.
 *
 * <p>{@link StoredMountTableResolver} (the default) reads the static directory partitioning
 * that operators keep with {@code locus mount}. Another resolver, such as one backed by the
 * Fat-Btree index, is chosen with {@code locus.ndcoupling.mount.resolver}; it must answer with
 * subtrees (mount points) whose owners do not nest, every path covered through {@code /}.
 */
public interface PartitionResolver extends Closeable {
  /**
   * @param entry the entry node's own partition, as a file system URI ({@code hdfs://ns2} or
   *     {@code hdfs://host:port})
   * @param conf the client's configuration (every partition's address is in it)
   * @return the table in force, every partition it names one of {@code dfs.nameservices}
   * @throws IOException naming the entry node when it cannot answer
   */
  MountTable load(URI entry, Configuration conf) throws IOException;

  /**
   * The version {@link #load} would answer now. Asked every refresh interval by every running
   * client, so it should read the version alone; the default loads the whole table.
   *
   * @throws IOException naming the entry node when it cannot answer
   */
  default int version(URI entry, Configuration conf) throws IOException {
    return load(entry, conf).version();
  }

  /** Releases what the resolver keeps open; the default holds nothing. */
  @Override
  default void close() throws IOException {
  }
}
