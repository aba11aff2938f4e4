package org.locus.ndcoupling;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;

/**
 * Where a partition of coupled nodes lives: the NameNode on the partition's own node, read from
 * Hadoop's federation keys. Placement (a partition's first replica on its own node) and the gear
 * clients (each partition's gear service beside that NameNode) both ask here.
 *
 * <p>A partition without a metadata copy has one address, {@code dfs.namenode.rpc-address.NS}.
 * A partition with a copy is an HA nameservice: {@code dfs.ha.namenodes.NS} lists its NameNode
 * ids, the partition's own node first and its copy on the replica node after it, each with
 * {@code dfs.namenode.rpc-address.NS.ID}. The home is that first NameNode's node whichever of
 * the two is active at the moment: the partition's data stays placed around its own node while
 * the copy serves it.
 */
public final class PartitionHomes {
  private static final int DEFAULT_RPC_PORT = 8020;

  private PartitionHomes() {
  }

  /**
   * @return the RPC address of partition {@code ns}'s NameNode on its own node; empty when the
   *     configuration names none
   */
  public static Optional<InetSocketAddress> home(Configuration conf, String ns) {
    String key = "dfs.namenode.rpc-address." + ns;
    String address = conf.getTrimmed(key, "");
    if (address.isEmpty()) {
      Collection<String> ids = conf.getTrimmedStringCollection("dfs.ha.namenodes." + ns);
      if (ids.isEmpty()) {
        return Optional.empty();
      }
      key = key + "." + ids.iterator().next();
      address = conf.getTrimmed(key, "");
      if (address.isEmpty()) {
        return Optional.empty();
      }
    }
    return Optional.of(NetUtils.createSocketAddr(address, DEFAULT_RPC_PORT, key));
  }

  /** @return the host of {@link #home}, or null when the configuration names none */
  public static String homeHost(Configuration conf, String ns) {
    return home(conf, ns).map(InetSocketAddress::getHostString).orElse(null);
  }
}
