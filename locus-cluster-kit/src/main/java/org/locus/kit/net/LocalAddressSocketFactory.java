package org.locus.kit.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Objects;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.StandardSocketFactory;

/**
 * A Hadoop RPC socket factory whose sockets leave from a chosen local address.
 *
 * <p>The NameNode records a DataNode's IP from the source address of its registration RPC, not
 * from {@code dfs.datanode.hostname}. In an embedded cluster every connection would leave from
 * 127.0.0.1, and all DataNodes would look like one host. Configured per DataNode as
 * {@code hadoop.rpc.socket.factory.class.DatanodeProtocolPB}, this factory makes each DataNode's
 * RPCs come from its own loopback address.
 *
 * <p>Hadoop's RPC client caches connections keyed by the socket factory, so {@link #equals} and
 * {@link #hashCode} include the bind address: two DataNodes in one JVM must not share a
 * connection.
 */
public class LocalAddressSocketFactory extends StandardSocketFactory implements Configurable {
  /** Key holding the local address sockets bind to before connecting. */
  public static final String BIND_ADDRESS_KEY = "locus.kit.rpc.bind.address";

  private Configuration conf;
  private String bindAddress;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.bindAddress = conf.getTrimmed(BIND_ADDRESS_KEY);
    if (bindAddress == null || bindAddress.isEmpty()) {
      throw new IllegalArgumentException(
          getClass().getSimpleName() + " is configured but " + BIND_ADDRESS_KEY + " is not set");
    }
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public Socket createSocket() throws IOException {
    Socket socket = super.createSocket();
    socket.bind(new InetSocketAddress(bindAddress, 0));
    return socket;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LocalAddressSocketFactory
        && Objects.equals(bindAddress, ((LocalAddressSocketFactory) other).bindAddress);
  }

  @Override
  public int hashCode() {
    return Objects.hash(LocalAddressSocketFactory.class, bindAddress);
  }
}
