package org.locus.ndcoupling.fatbtree.service;

import java.util.function.Supplier;
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
 *
 * <p>A node with copies ({@link CopiedIndexNode}) adds counters of its {@link CopyCounters}:
 * PagesMirrored, PagesShipped, BytesShipped, Switches, GateClosures, GateLeasesExpired. Its own
 * incarnation changes at each switch and is absent while it is off (then only these are
 * published); the tree's counters are those of the incarnation serving now.
 */
public final class FatBtreeMetrics implements MetricsSource {

  /** The record's name. */
  public static final String RECORD = "FatBtreeIndex";

  private final int nodeId;
  private final Supplier<FatBtreeNode> incarnation;
  private final CopyCounters copies;

  FatBtreeMetrics(FatBtreeNode node) {
    this(node.nodeId(), () -> node, null);
  }

  /**
   * @param nodeId      the node's id (its tag)
   * @param incarnation the node's own incarnation now, or null while it is off
   * @param copies      the node's copy counters, or null without copies
   */
  FatBtreeMetrics(int nodeId, Supplier<FatBtreeNode> incarnation, CopyCounters copies) {
    this.nodeId = nodeId;
    this.incarnation = incarnation;
    this.copies = copies;
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
    FatBtreeNode node = incarnation.get();
    MetricsRecordBuilder record = collector.addRecord(RECORD).setContext("locus")
        .tag(info("NodeId", "Fat-Btree node id"), Integer.toString(nodeId));
    if (copies != null) {
      record.addCounter(info("PagesMirrored", "Page writes stored here for another"
              + " incarnation's pages: a copy kept here, or this node's own while returning"),
              copies.pagesMirrored.get())
          .addCounter(info("PagesShipped", "Pages sent to returning nodes at step 1"),
              copies.pagesShipped.get())
          .addCounter(info("BytesShipped", "Bytes of the pages sent at step 1"),
              copies.bytesShipped.get())
          .addCounter(info("Switches", "Incarnations started or stopped here"),
              copies.switches.get())
          .addCounter(info("GateClosures", "Switches that closed this node's gate"),
              copies.gateClosures.get())
          .addCounter(info("GateLeasesExpired", "Gates opened by themselves when a switch's"
              + " coordinator did not open them"), copies.gateLeasesExpired.get());
    }
    if (node == null) {
      return;
    }
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
    record.addCounter(info("Lookups", "Lookups started at this node"), c.lookups.get())
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
