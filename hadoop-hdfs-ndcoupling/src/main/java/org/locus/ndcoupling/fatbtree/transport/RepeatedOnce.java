package org.locus.ndcoupling.fatbtree.transport;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An RPC proxy whose calls are sent once more when they fail in transport (an IOException that
 * is not a {@link RemoteException}, which the server sent): Hadoop's RPC client keeps one
 * connection per address and protocol, and after a server restarted on its old address (a node
 * switched off and on) the first call goes out on the dead connection and fails with an
 * EOFException, never having reached the new server. Only for protocols whose every call is
 * safe to repeat ({@link NodeSwitchProtocol}'s steps, {@link IndexAdminProtocol}'s switches),
 * as {@code RpcPeer} does for the repeatable calls between index nodes.
 */
public final class RepeatedOnce {

  private static final Logger LOG = LoggerFactory.getLogger(RepeatedOnce.class);

  private RepeatedOnce() {
  }

  /**
   * {@code proxy} with each call that fails in transport sent once more; {@code to} for logs.
   * Stop the RPC proxy itself, not the wrapper.
   */
  public static <T> T wrap(Class<T> protocol, T proxy, Object to) {
    InvocationHandler handler = (self, method, args) -> {
      if (method.getDeclaringClass() == Object.class) {
        return method.invoke(proxy, args);
      }
      try {
        return method.invoke(proxy, args);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (!(cause instanceof IOException) || cause instanceof RemoteException) {
          throw cause;
        }
        LOG.debug("{} to {} failed in transport ({}); once more", method.getName(), to,
            cause.toString());
      }
      try {
        return method.invoke(proxy, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
    return protocol.cast(Proxy.newProxyInstance(protocol.getClassLoader(),
        new Class<?>[] {protocol}, handler));
  }
}
