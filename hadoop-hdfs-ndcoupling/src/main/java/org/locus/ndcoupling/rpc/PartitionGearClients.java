package org.locus.ndcoupling.rpc;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
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
 * pair); partition NS's gear service listens on that host, at the port of
 * {@code locus.ndcoupling.gear.rpc-address} (default 50110).
 *
 * <p>A partition with a metadata copy (an HA nameservice, {@code dfs.ha.namenodes.NS}) has a
 * gear service in each of its NameNodes: NameNode ID's on the host of
 * {@code dfs.namenode.rpc-address.NS.ID}, at the port of
 * {@code locus.ndcoupling.gear.rpc-address.NS.ID} when set (a copy shares its node with that
 * node's own NameNode, so it needs a port of its own), else the default port.
 * {@link #nameNodes} lists them; their clients give up on a refused connection at once, since a
 * NameNode of a node switched off is expected to be unreachable.
 */
public final class PartitionGearClients implements Closeable {
  /** The name of the one gear service of a cluster with one NameNode. */
  public static final String ONE_NAMENODE = "namenode";

  private final Map<String, GearClient> clients;
  private final Map<String, Map<String, GearClient>> copies;

  private PartitionGearClients(Map<String, GearClient> clients,
      Map<String, Map<String, GearClient>> copies) {
    this.clients = clients;
    this.copies = copies;
  }

  /** Connects to every partition's gear service, or to the one NameNode's. */
  public static PartitionGearClients connect(Configuration conf) throws IOException {
    Collection<String> nameservices = conf.getTrimmedStringCollection("dfs.nameservices");
    Map<String, GearClient> clients = new LinkedHashMap<>();
    Map<String, Map<String, GearClient>> copies = new LinkedHashMap<>();
    if (nameservices.size() < 2) {
      clients.put(ONE_NAMENODE, GearClient.connect(conf));
      return new PartitionGearClients(clients, copies);
    }
    int port = defaultPort(conf);
    Configuration quick = new Configuration(conf);
    quick.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    quick.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY,
        0);
    try {
      for (String ns : nameservices) {
        String host = PartitionHomes.homeHost(conf, ns);
        if (host == null) {
          throw new IOException("neither dfs.namenode.rpc-address." + ns + " nor dfs.ha.namenodes."
              + ns + " with its addresses is set: cannot find partition " + ns
              + "'s NameNode and its gear service");
        }
        clients.put(ns, GearClient.connect(conf, new InetSocketAddress(host, port)));
        List<String> ids = new ArrayList<>(conf.getTrimmedStringCollection(
            "dfs.ha.namenodes." + ns));
        if (ids.size() > 1) {
          Map<String, GearClient> byId = new LinkedHashMap<>();
          copies.put(ns, byId);
          for (String id : ids) {
            byId.put(id, GearClient.connect(quick, gearAddress(conf, ns, id, port)));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      clients.values().forEach(GearClient::close);
      copies.values().forEach(byId -> byId.values().forEach(GearClient::close));
      throw e;
    }
    return new PartitionGearClients(clients, copies);
  }

  private static int defaultPort(Configuration conf) {
    String configured = conf.getTrimmed(NdCouplingConfigKeys.GEAR_RPC_ADDRESS, "");
    return configured.isEmpty() ? NdCouplingConfigKeys.GEAR_RPC_PORT_DEFAULT
        : NetUtils.createSocketAddr(configured, NdCouplingConfigKeys.GEAR_RPC_PORT_DEFAULT,
            NdCouplingConfigKeys.GEAR_RPC_ADDRESS).getPort();
  }

  /** @return where NameNode {@code id} of partition {@code ns} serves its gear service */
  static InetSocketAddress gearAddress(Configuration conf, String ns, String id,
      int defaultPort) throws IOException {
    String rpcKey = "dfs.namenode.rpc-address." + ns + "." + id;
    String rpc = conf.getTrimmed(rpcKey, "");
    if (rpc.isEmpty()) {
      throw new IOException(rpcKey + " is not set: cannot find NameNode " + id + " of "
          + ns + " and its gear service");
    }
    String host = NetUtils.createSocketAddr(rpc, 8020, rpcKey).getHostString();
    String gearKey = NdCouplingConfigKeys.GEAR_RPC_ADDRESS + "." + ns + "." + id;
    String gear = conf.getTrimmed(gearKey, "");
    int port = gear.isEmpty() ? defaultPort
        : NetUtils.createSocketAddr(gear, defaultPort, gearKey).getPort();
    return new InetSocketAddress(host, port);
  }

  /**
   * @return each partition's gear service (one entry, {@link #ONE_NAMENODE}, without them); for
   *     a partition with a copy, the one beside its home NameNode
   */
  public Map<String, GearProtocol> gears() {
    Map<String, GearProtocol> gears = new LinkedHashMap<>();
    clients.forEach((name, client) -> gears.put(name, client.gears()));
    return gears;
  }

  /**
   * @return for every partition with a metadata copy, the gear service of each of its
   *     NameNodes by NameNode id, the home NameNode first; empty without copies
   */
  public Map<String, Map<String, GearProtocol>> nameNodes() {
    Map<String, Map<String, GearProtocol>> out = new LinkedHashMap<>();
    copies.forEach((ns, byId) -> {
      Map<String, GearProtocol> gears = new LinkedHashMap<>();
      byId.forEach((id, client) -> gears.put(id, client.gears()));
      out.put(ns, gears);
    });
    return out;
  }

  /** @return whether this cluster has a gear service per partition */
  public boolean partitioned() {
    return !clients.containsKey(ONE_NAMENODE);
  }

  @Override
  public void close() {
    clients.values().forEach(GearClient::close);
    copies.values().forEach(byId -> byId.values().forEach(GearClient::close));
  }
}
