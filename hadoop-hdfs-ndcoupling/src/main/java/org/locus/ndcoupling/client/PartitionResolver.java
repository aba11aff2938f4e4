package org.locus.ndcoupling.client;

import java.io.IOException;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;

/**
 * Tells a {@code locus://} client which partition owns each subtree of the coupled namespace,
 * as the entry node the client named knows it. The client builds its view from the answer
 * once, when its file system is created, and then goes to each owner directly.
 *
 * <p>{@link StoredMountTableResolver} (the default) reads the static directory partitioning
 * that operators keep with {@code locus mount}. Another resolver, such as one backed by the
 * Fat-Btree index, is chosen with {@code locus.ndcoupling.mount.resolver}; it must answer with
 * subtrees (mount points) whose owners do not nest, every path covered through {@code /}.
 * Implementations need a public no-argument constructor.
 */
public interface PartitionResolver {
  /**
   * @param entry the entry node's own partition, as a file system URI ({@code hdfs://ns2} or
   *     {@code hdfs://host:port})
   * @param conf the client's configuration (every partition's address is in it)
   * @return the table in force, every partition it names one of {@code dfs.nameservices}
   * @throws IOException naming the entry node when it cannot answer
   */
  MountTable load(URI entry, Configuration conf) throws IOException;
}
