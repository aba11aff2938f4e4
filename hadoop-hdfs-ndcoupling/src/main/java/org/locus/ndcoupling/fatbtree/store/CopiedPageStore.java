package org.locus.ndcoupling.fatbtree.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.locus.ndcoupling.fatbtree.Page;

/**
 * The store a node serves from, with a second store it keeps in step: a node's own pages and
 * their copy on the next node of the ring (docs/ndcoupling.md, "Fat-Btree copies").
 *
 * <ul>
 *   <li><b>Mirroring</b>: every write goes to the served store, then to the other one. A node
 *       that is on serves its own pages so, and its copy is always current, as an HA standby
 *       that tails every edit is.</li>
 *   <li><b>Logging</b>: writes go to the served store only, and the first write of each page
 *       (and of the node file) records what the page was before: the copy serves so while the
 *       node is off. The other store, the off node's own, is not touched.</li>
 * </ul>
 *
 * <p>{@link #shipChanges} is gear-up step 1: it switches a logging store to mirroring, then
 * writes to the other store each logged page that now differs from what it was before (a page
 * changed and changed back is not sent), deletes each logged page that is gone, and sends the
 * node file if it changed. Writes of one page id, and a page's shipping, are serialised by a
 * lock of their own (never held while waiting for another), so a page written while it ships
 * reaches the other store after it; readers take no lock.
 *
 * <p>{@link #stopMirroring} turns a mirroring store into a logging one: over RPC, where the
 * other store goes away with its node (a holder switched off takes the copies it keeps with
 * it), the node serving keeps a log for it instead, and {@link #shipChanges} catches the other
 * store up when it returns.
 */
public final class CopiedPageStore implements PageStore {

  private static final int STRIPES = 64;

  private final PageStore served;
  private final PageStore other;
  private final Object[] stripes = new Object[STRIPES];
  private final Object nodeFileLock = new Object();
  private final Map<Long, Optional<Page>> before = new ConcurrentHashMap<>();
  private volatile boolean mirroring;
  private boolean nodeFileLogged;
  private NodeFile nodeFileBefore;

  private CopiedPageStore(PageStore served, PageStore other, boolean mirroring) {
    this.served = served;
    this.other = other;
    this.mirroring = mirroring;
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Object();
    }
  }

  /** A node's own store, every write also applied to its copy. */
  public static CopiedPageStore mirrored(PageStore own, PageStore copy) {
    return new CopiedPageStore(own, copy, true);
  }

  /**
   * A node's copy serving in its place, logging what changes until {@link #shipChanges} sends
   * it to {@code own}. The copy must be equal to {@code own} when logging starts.
   */
  public static CopiedPageStore logged(PageStore copy, PageStore own) {
    return new CopiedPageStore(copy, own, false);
  }

  /**
   * From now on writes go to the served store only, each page's first write logged, until
   * {@link #shipChanges}: the other store, equal to the served one while mirroring, is going
   * away. Call only while no write is under way (a switch, behind a closed gate); a mirroring
   * write still under way would fail on the store that went.
   */
  public void stopMirroring() {
    mirroring = false;
  }

  /** Pages written or deleted since logging began (before shipping; 0 when mirroring). */
  public int changedPages() {
    return before.size();
  }

  /**
   * Step 1: from now on every write also goes to the other store, and each page logged as
   * changed that differs from what it was goes there too. Answers what was sent.
   */
  public PagesShipped shipChanges() {
    long start = System.nanoTime();
    mirroring = true;
    // A write that saw "logging" holds its stripe until its page is logged: once every stripe
    // has been passed, the log holds every page written without mirroring.
    for (Object stripe : stripes) {
      synchronized (stripe) {
        // passed: no write that saw "logging" is still under way on this stripe
      }
    }
    int pages = 0;
    long bytes = 0;
    for (long id : new ArrayList<>(before.keySet())) {
      synchronized (stripeOf(id)) {
        Page now = served.get(id);
        Page was = before.remove(id).orElse(null);
        if (Objects.equals(now, was)) {
          continue;
        }
        pages++;
        if (now != null) {
          other.put(now);
          bytes += PageCodec.encode(now).length;
        } else {
          other.remove(id);
        }
      }
    }
    boolean nodeFile = false;
    synchronized (nodeFileLock) {
      if (nodeFileLogged) {
        NodeFile now = served.nodeFile();
        if (!Objects.equals(now, nodeFileBefore)) {
          other.putNodeFile(now);
          nodeFile = true;
        }
        nodeFileLogged = false;
        nodeFileBefore = null;
      }
    }
    return new PagesShipped(pages, bytes, nodeFile,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }

  /** The store this one serves from. */
  public PageStore served() {
    return served;
  }

  @Override
  public Page get(long id) {
    return served.get(id);
  }

  @Override
  public Collection<Page> all() {
    return served.all();
  }

  @Override
  public int size() {
    return served.size();
  }

  @Override
  public void put(Page page) {
    synchronized (stripeOf(page.id())) {
      boolean mirror = mirroring;
      if (!mirror) {
        before.computeIfAbsent(page.id(), i -> Optional.ofNullable(served.get(i)));
      }
      served.put(page);
      if (mirror) {
        other.put(page);
      }
    }
  }

  @Override
  public void remove(long id) {
    synchronized (stripeOf(id)) {
      boolean mirror = mirroring;
      if (!mirror) {
        before.computeIfAbsent(id, i -> Optional.ofNullable(served.get(i)));
      }
      served.remove(id);
      if (mirror) {
        other.remove(id);
      }
    }
  }

  @Override
  public NodeFile nodeFile() {
    return served.nodeFile();
  }

  @Override
  public void putNodeFile(NodeFile file) {
    synchronized (nodeFileLock) {
      boolean mirror = mirroring;
      if (!mirror && !nodeFileLogged) {
        nodeFileLogged = true;
        nodeFileBefore = served.nodeFile();
      }
      served.putNodeFile(file);
      if (mirror) {
        other.putNodeFile(file);
      }
    }
  }

  @Override
  public String describe() {
    return served.describe() + (mirroring ? " (mirrored to " : " (changes logged for ")
        + other.describe() + ")";
  }

  private Object stripeOf(long id) {
    return stripes[(int) ((id ^ (id >>> 32)) & (STRIPES - 1))];
  }
}
