package org.locus.ndcoupling.fatbtree.service;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.NodeCounters;
import org.locus.ndcoupling.fatbtree.Page;

/**
 * One Fat-Btree node's metrics2 source, {@code LocusFatBtree-node<id>} (the node id in the name
 * so that several nodes in one JVM do not clash), record {@code FatBtreeIndex} tagged
 * {@code NodeId}. Counters come from {@link NodeCounters}; the page gauges are counted from the
 * node's page copies at each snapshot, so they are exact rather than maintained by the tree.
 *
 * <p>Counters: Lookups, Forwards, MessagesSent, MessagesReceived, PageFetches, PageCacheHits,
 * PageCacheMisses, PageCacheDrops, Retries, LeafSplits, IndexSplits, LeavesMoved. Gauges:
 * PageCopies, CachedPages, RootLevel, and PagesAtLevel0 (the leaves) up to
 * PagesAtLevel&lt;root level&gt;.
 */
public final class FatBtreeMetrics implements MetricsSource {

  /** The record's name. */
  public static final String RECORD = "FatBtreeIndex";

  private final FatBtreeNode node;

  FatBtreeMetrics(FatBtreeNode node) {
    this.node = node;
  }

  /** The source name of node {@code id}. */
  public static String sourceName(int id) {
    return "LocusFatBtree-node" + id;
  }

  private static MetricsInfo info(String name, String description) {
    return Interns.info(name, description);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    NodeCounters c = node.counters();
    int rootLevel = node.root().level();
    int[] perLevel = new int[rootLevel + 1];
    int copies = 0;
    for (Page page : node.pageCopies()) {
      copies++;
      if (page.level() >= 0 && page.level() < perLevel.length) {
        perLevel[page.level()]++;
      }
    }
    MetricsRecordBuilder record = collector.addRecord(RECORD).setContext("locus")
        .tag(info("NodeId", "Fat-Btree node id"), Integer.toString(node.nodeId()))
        .addCounter(info("Lookups", "Lookups started at this node"), c.lookups.get())
        .addCounter(info("Forwards", "Lookups and updates forwarded to a leaf's node"),
            c.forwards.get())
        .addCounter(info("MessagesSent", "Requests sent to other nodes"), c.messagesSent.get())
        .addCounter(info("MessagesReceived", "Requests received from other nodes"),
            c.messagesReceived.get())
        .addCounter(info("PageFetches", "Pages read from other nodes"), c.pageFetches.get())
        .addCounter(info("PageCacheHits", "Upper pages read from the cache of fetched copies"),
            c.pageCacheHits.get())
        .addCounter(info("PageCacheMisses", "Upper pages neither held here nor cached"),
            c.pageCacheMisses.get())
        .addCounter(info("PageCacheDrops", "Cached copies dropped as stale"),
            c.pageCacheDrops.get())
        .addCounter(info("Retries", "Descents started again"), c.retries.get())
        .addCounter(info("LeafSplits", "Leaf splits done here"), c.leafSplits.get())
        .addCounter(info("IndexSplits", "Index page splits done here"), c.indexSplits.get())
        .addCounter(info("LeavesMoved", "Leaves moved away from here"), c.leavesMoved.get())
        .addGauge(info("PageCopies", "Page copies held here"), copies)
        .addGauge(info("CachedPages", "Fetched copies of other nodes' pages kept here"),
            node.cachedPageCount())
        .addGauge(info("RootLevel", "Level of the root page"), rootLevel);
    for (int level = 0; level < perLevel.length; level++) {
      record.addGauge(info("PagesAtLevel" + level, "Page copies held here at level " + level
          + " (0: leaves)"), perLevel[level]);
    }
  }
}
