package org.locus.ndcoupling.fatbtree;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What a client operation passes to start, and what a node switch closes: the switch of a
 * node's incarnation (its own pages or their copy on the next node of the ring,
 * {@link NodeCopies}) happens while no operation is in flight, so that no latch is held, no
 * leaf update half done and no page id being reserved on the incarnation that stops.
 *
 * <p>Operations pass shared; a switch holds the gate exclusively for as long as it takes to
 * stop one incarnation and register the other, which is a pause for every client, as a
 * NameNode failover is. Readers still never wait on a split or a move: only on a switch.
 * {@link #OPEN} never closes (a tree without copies).
 */
public final class OperationGate {

  /** The gate of a tree without copies: passing costs nothing and nothing closes it. */
  public static final OperationGate OPEN = new OperationGate(false);

  /** A pass through the gate, held for one client operation. */
  public interface Pass extends AutoCloseable {
    @Override
    void close();
  }

  private static final Pass FREE = () -> { };

  private final ReentrantReadWriteLock lock;

  private OperationGate(boolean closable) {
    this.lock = closable ? new ReentrantReadWriteLock() : null;
  }

  /** A gate that {@link #whileClosed} can close. */
  public OperationGate() {
    this(true);
  }

  /** Waits while a switch holds the gate, then lets the operation through until it closes. */
  public Pass enter() {
    if (lock == null) {
      return FREE;
    }
    lock.readLock().lock();
    return () -> lock.readLock().unlock();
  }

  /** Runs {@code switchOver} once no operation is in flight, holding new ones back meanwhile. */
  public void whileClosed(Runnable switchOver) {
    if (lock == null) {
      throw new IllegalStateException("the open gate of a tree without copies never closes");
    }
    lock.writeLock().lock();
    try {
      switchOver.run();
    } finally {
      lock.writeLock().unlock();
    }
  }
}
