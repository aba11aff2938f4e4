package org.locus.ndcoupling.rpc;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.net.NetUtils;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/** A client of the NameNode's gear service ({@link GearProtocol}). */
public final class GearClient implements Closeable {
  private final GearProtocol proxy;

  private GearClient(GearProtocol proxy) {
    this.proxy = proxy;
  }

  /**
   * Connects to the gear service at {@code locus.ndcoupling.gear.rpc-address}, or, when that is
   * unset or a wildcard, on the NameNode's host ({@code fs.defaultFS}).
   */
  public static GearClient connect(Configuration conf) throws IOException {
    String address = conf.getTrimmed(NdCouplingConfigKeys.GEAR_RPC_ADDRESS, "");
    if (address.isEmpty() || address.startsWith("0.0.0.0:")) {
      // The service listens beside the NameNode: its host, the configured or default port.
      String host = org.apache.hadoop.fs.FileSystem.getDefaultUri(conf).getHost();
      if (host == null) {
        throw new IOException(NdCouplingConfigKeys.GEAR_RPC_ADDRESS + " is not set and"
            + " fs.defaultFS names no NameNode host; set it to the gear service's host:port");
      }
      int port = address.isEmpty() ? NdCouplingConfigKeys.GEAR_RPC_PORT_DEFAULT
          : Integer.parseInt(address.substring("0.0.0.0:".length()));
      address = host + ":" + port;
    }
    return connect(conf, NetUtils.createSocketAddr(address,
        NdCouplingConfigKeys.GEAR_RPC_PORT_DEFAULT, NdCouplingConfigKeys.GEAR_RPC_ADDRESS));
  }

  /** Connects to the gear service at {@code address}. */
  public static GearClient connect(Configuration conf, InetSocketAddress address)
      throws IOException {
    Configuration rpcConf = new Configuration(conf);
    RPC.setProtocolEngine(rpcConf, GearProtocol.class, WritableRpcEngine.class);
    return new GearClient(RPC.getProxy(GearProtocol.class, GearProtocol.versionID, address,
        rpcConf));
  }

  /** @return the gear service's proxy */
  public GearProtocol gears() {
    return proxy;
  }

  @Override
  public void close() {
    RPC.stopProxy(proxy);
  }
}
