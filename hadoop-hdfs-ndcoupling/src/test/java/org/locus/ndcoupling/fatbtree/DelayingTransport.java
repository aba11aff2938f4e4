package org.locus.ndcoupling.fatbtree;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * A transport that holds back a random share of messages for a moment before delivering them,
 * as a network would: it widens the windows between the steps of a split or a move in which
 * other clients can interleave.
 */
final class DelayingTransport implements PeerTransport {

  private final PeerTransport inner;

  DelayingTransport(PeerTransport inner) {
    this.inner = inner;
  }

  @Override
  public NodeSet nodes() {
    return inner.nodes();
  }

  @Override
  public IndexPeer peer(int from, int to) {
    IndexPeer target = inner.peer(from, to);
    return (IndexPeer) Proxy.newProxyInstance(IndexPeer.class.getClassLoader(),
        new Class<?>[] {IndexPeer.class}, (proxy, method, args) -> {
          int dice = ThreadLocalRandom.current().nextInt(100);
          if (dice < 30) {
            Thread.yield();
          } else if (dice < 32) {
            LockSupport.parkNanos(200_000);
          }
          try {
            return method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
