package org.locus.ndcoupling.rpc;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.PartitionHomes;

/**
 * The gear services a cluster's gear commands talk to: one per partition on coupled nodes
 * (federation, a NameNode per node, each running the gears for its own block pool), else the
 * one NameNode's.
 *
 * <p>Coupled nodes are recognised by {@code dfs.nameservices} naming two or more nameservices,
 * each with its home NameNode ({@code PartitionHomes}: its one address, or the first of its HA
 * pair); partition NS's gear service listens on that
 * host, at the port of {@code locus.ndcoupling.gear.rpc-address} (default 50110).
 */
public final class PartitionGearClients implements Closeable {
  /** The name of the one gear service of a cluster with one NameNode. */
  public static final String ONE_NAMENODE = "namenode";

  private final Map<String, GearClient> clients;

  private PartitionGearClients(Map<String, GearClient> clients) {
    this.clients = clients;
  }

  /** Connects to every partition's gear service, or to the one NameNode's. */
  public static PartitionGearClients connect(Configuration conf) throws IOException {
    Collection<String> nameservices = conf.getTrimmedStringCollection("dfs.nameservices");
    Map<String, GearClient> clients = new LinkedHashMap<>();
    if (nameservices.size() < 2) {
      clients.put(ONE_NAMENODE, GearClient.connect(conf));
      return new PartitionGearClients(clients);
    }
    String configured = conf.getTrimmed(NdCouplingConfigKeys.GEAR_RPC_ADDRESS, "");
    int port = configured.isEmpty() ? NdCouplingConfigKeys.GEAR_RPC_PORT_DEFAULT
        : NetUtils.createSocketAddr(configured, NdCouplingConfigKeys.GEAR_RPC_PORT_DEFAULT,
            NdCouplingConfigKeys.GEAR_RPC_ADDRESS).getPort();
    try {
      for (String ns : nameservices) {
        String host = PartitionHomes.homeHost(conf, ns);
        if (host == null) {
          throw new IOException("neither dfs.namenode.rpc-address." + ns + " nor dfs.ha.namenodes."
              + ns + " with its addresses is set: cannot find partition " + ns
              + "'s NameNode and its gear service");
        }
        clients.put(ns, GearClient.connect(conf, new InetSocketAddress(host, port)));
      }
    } catch (IOException | RuntimeException e) {
      clients.values().forEach(GearClient::close);
      throw e;
    }
    return new PartitionGearClients(clients);
  }

  /** @return each partition's gear service (one entry, {@link #ONE_NAMENODE}, without them) */
  public Map<String, GearProtocol> gears() {
    Map<String, GearProtocol> gears = new LinkedHashMap<>();
    clients.forEach((name, client) -> gears.put(name, client.gears()));
    return gears;
  }

  /** @return whether this cluster has a gear service per partition */
  public boolean partitioned() {
    return !clients.containsKey(ONE_NAMENODE);
  }

  @Override
  public void close() {
    clients.values().forEach(GearClient::close);
  }
}
