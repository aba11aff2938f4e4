package org.locus.ndcoupling.fatbtree.service;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.locus.ndcoupling.fatbtree.OperationGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's {@link OperationGate} closed by one RPC and opened by a later one, for a switch run
 * by a coordinator on another node. The gate's exclusive side belongs to a thread, and two RPCs
 * arrive on any handler threads, so a thread of its own holds the gate closed from
 * {@link #close} until {@link #open}.
 *
 * <p>A coordinator that dies leaves no {@link #open}: the holding thread opens the gate by
 * itself once the lease passes, logs it as an error naming the switch, and counts it, so that
 * clients do not wait forever; the late {@link #open} then says so. A second switch is refused
 * while one holds the gate; the same switch closing again is answered as done.
 */
final class HeldGate {

  private static final Logger LOG = LoggerFactory.getLogger(HeldGate.class);

  private final OperationGate gate;
  private final String owner;
  private final CopyCounters counters;
  private String switchId;
  private CountDownLatch opened;
  private Thread holder;
  private String expired;

  HeldGate(OperationGate gate, String owner, CopyCounters counters) {
    this.gate = gate;
    this.owner = owner;
    this.counters = counters;
  }

  /** Closes the gate for {@code id}; returns once no operation admitted here is in flight. */
  void close(String id, long leaseMillis) throws IOException {
    CountDownLatch closed = new CountDownLatch(1);
    synchronized (this) {
      if (id.equals(switchId)) {
        return;
      }
      if (switchId != null) {
        throw new IOException("the operation gate of " + owner + " is held by switch "
            + switchId + "; switch " + id + " must wait for it to end");
      }
      CountDownLatch open = new CountDownLatch(1);
      switchId = id;
      opened = open;
      expired = null;
      holder = new Thread(() -> hold(id, open, closed, leaseMillis),
          "fat-btree-gate-" + owner + "-" + id);
      holder.setDaemon(true);
      holder.start();
    }
    try {
      closed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted closing the gate of " + owner);
    }
    counters.gateClosures.incrementAndGet();
  }

  private void hold(String id, CountDownLatch open, CountDownLatch closed, long leaseMillis) {
    boolean[] inTime = {false};
    gate.whileClosed(() -> {
      closed.countDown();
      try {
        inTime[0] = open.await(leaseMillis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    if (!inTime[0]) {
      synchronized (this) {
        if (id.equals(switchId)) {
          switchId = null;
          expired = id;
        }
      }
      counters.gateLeasesExpired.incrementAndGet();
      LOG.error("The operation gate of {} opened by itself after the {} ms lease of switch {}:"
          + " its coordinator did not open it. The switch may be half done; run it again.",
          owner, leaseMillis, id);
    }
  }

  /**
   * Refuses {@code step} unless a switch holds the gate closed: a step that changes what this
   * node serves or where it sends a node's messages runs only with no operation in flight here.
   * A gate whose lease passed is open again, so a late step of its switch is refused too.
   */
  synchronized void requireClosed(String step) throws IOException {
    if (switchId == null) {
      throw new IOException(owner + " refuses " + step + ": a switch step runs only behind"
          + " the node's closed operation gate (closeGate first)"
          + (expired == null ? "" : "; the lease of switch " + expired + " has passed"));
    }
  }

  /** Opens the gate {@code id} closed; done already if it was (and did not expire). */
  void open(String id) throws IOException {
    Thread waitFor;
    synchronized (this) {
      if (id.equals(expired)) {
        expired = null;
        throw new IOException("the operation gate of " + owner + " opened by itself when the"
            + " lease of switch " + id + " passed, so operations ran during it; run the switch"
            + " again");
      }
      if (switchId == null) {
        return;
      }
      if (!id.equals(switchId)) {
        throw new IOException("the operation gate of " + owner + " is held by switch "
            + switchId + ", not " + id);
      }
      opened.countDown();
      switchId = null;
      waitFor = holder;
    }
    try {
      waitFor.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted opening the gate of " + owner);
    }
  }
}
