package org.locus.ndcoupling.fatbtree.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.NodeCopies;
import org.locus.ndcoupling.fatbtree.TreeVerifier;
import org.locus.ndcoupling.fatbtree.VerificationReport;
import org.locus.ndcoupling.fatbtree.store.PageStore;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;
import org.locus.ndcoupling.fatbtree.transport.IndexAdminClient;
import org.locus.ndcoupling.fatbtree.transport.IndexClient;
import org.locus.ndcoupling.shift.IndexAdminHandOver;

/**
 * Index nodes started from their configuration keys alone ({@link IndexNodeService#start}, what
 * the NameNode plug-in calls) with {@code locus.ndcoupling.index.copies} on: three nodes, node
 * k's server on 127.0.0.(k + 1) at the port its peer entry names, its pages in its own
 * directory. Each is a {@link CopiedIndexNode} that mirrors to the next node and is switched
 * whole through {@link IndexAdminClient}, as the gear shifter does.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConfiguredIndexCopiesTest {
  private static final int NODES = 3;

  @TempDir
  Path root;

  private final IndexNodeService[] services = new IndexNodeService[NODES];
  private final Map<Integer, String> peers = new TreeMap<>();

  @AfterEach
  void stopAll() {
    for (IndexNodeService s : services) {
      if (s != null) {
        s.close();
      }
    }
  }

  private Configuration conf(int node, boolean copies) {
    Configuration conf = new Configuration(false);
    conf.setInt("ipc.client.connect.max.retries", 1);
    conf.setInt("ipc.client.connect.retry.interval", 100);
    conf.set(NdCouplingConfigKeys.INDEX_NODE_ID, Integer.toString(node));
    List<String> list = new ArrayList<>();
    peers.forEach((id, address) -> list.add(id + "=" + address));
    conf.set(NdCouplingConfigKeys.INDEX_PEERS, String.join(",", list));
    conf.set(NdCouplingConfigKeys.INDEX_DIR, root.resolve("node-" + node).toString());
    conf.setInt(NdCouplingConfigKeys.INDEX_LEAF_CAPACITY, 4);
    conf.setInt(NdCouplingConfigKeys.INDEX_PAGE_CAPACITY, 4);
    conf.setBoolean(NdCouplingConfigKeys.INDEX_SYNC_WRITES, false);
    conf.setBoolean(NdCouplingConfigKeys.INDEX_COPIES, copies);
    return conf;
  }

  /** Every node at a free port of its own address, listed before any starts. */
  private void startAll(boolean copies) throws IOException {
    for (int k = 0; k < NODES; k++) {
      String host = "127.0.0." + (k + 1);
      try (ServerSocket probe = new ServerSocket(0, 1,
          InetAddress.getByName(host))) {
        peers.put(k, host + ":" + probe.getLocalPort());
      }
    }
    for (int k = 0; k < NODES; k++) {
      services[k] = IndexNodeService.start(conf(k, copies), null).orElseThrow();
    }
  }

  private InetSocketAddress address(int k) {
    return services[k].address();
  }

  /** Starts node {@code k} again from its keys, once its old port is free. */
  private void restart(int k) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        services[k] = IndexNodeService.start(conf(k, true), null).orElseThrow();
        return;
      } catch (IOException e) {
        if (!(e.getCause() instanceof BindException) || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  private Map<String, Integer> putAt(int k, String prefix, int count) throws IOException {
    Map<String, Integer> written = new HashMap<>();
    try (IndexClient client = IndexClient.connect(conf(k, true), address(k))) {
      for (int i = 0; i < count; i++) {
        String path = prefix + "/file-" + i;
        client.put(path, i % NODES);
        written.put(path, i % NODES);
      }
    }
    return written;
  }

  private void assertAnswersAt(int k, Map<String, Integer> expected) throws IOException {
    try (IndexClient client = IndexClient.connect(conf(k, true), address(k))) {
      for (Map.Entry<String, Integer> e : expected.entrySet()) {
        assertEquals(OptionalInt.of(e.getValue()), client.lookup(e.getKey()),
            e.getKey() + " at node " + k);
      }
    }
  }

  private CopiedIndexNode copied(int k) {
    return services[k].copies().orElseThrow(() -> new AssertionError("node " + k
        + " opened without copies"));
  }

  private VerificationReport verifyAllOn() {
    List<FatBtreeNode> nodes = new ArrayList<>();
    Map<Integer, PageStore> copies = new TreeMap<>();
    for (int k = 0; k < NODES; k++) {
      nodes.add(services[k].node());
      copies.put(k, copied((k + 1) % NODES).copyStore());
    }
    return TreeVerifier.verify(nodes, copies);
  }

  @Test
  void aConfiguredNodeMirrorsEveryWriteToTheNextNodeAndPublishesItsCopyCounters()
      throws Exception {
    startAll(true);
    for (int k = 0; k < NODES; k++) {
      assertEquals((k + NODES - 1) % NODES, copied(k).copied(), "node " + k + " keeps its"
          + " predecessor's copy");
      assertTrue(Files.isDirectory(root.resolve("node-" + k)
          .resolve("copy-of-node-" + copied(k).copied())), "copy directory of node " + k);
    }
    Map<String, Integer> written = putAt(0, "/data", 60);

    VerificationReport report = verifyAllOn();
    assertTrue(report.isSound(), report.toString());
    assertTrue(copied(2).counters().pagesMirrored.get() > 0,
        "node 1's writes reached node 2's copy of it");
    assertAnswersAt(2, written);
    Map<String, Number> published = new HashMap<>();
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    DefaultMetricsSystem.instance().getSource(FatBtreeMetrics.sourceName(2))
        .getMetrics(collector, true);
    for (MetricsRecord record : collector.getRecords()) {
      for (AbstractMetric m : record.metrics()) {
        published.put(m.name(), m.value());
      }
    }
    assertEquals(copied(2).counters().pagesMirrored.get(),
        published.get("PagesMirrored").longValue(), "published as " + published);
  }

  @Test
  void aConfiguredNodeSwitchedOffThroughTheAdminClientIsAnsweredByItsCopyAndComesBack()
      throws Exception {
    startAll(true);
    Map<String, Integer> before = putAt(0, "/data", 60);

    try (IndexAdminClient admin = IndexAdminClient.connect(conf(2, true), address(2))) {
      admin.nodeOff(1);
      assertEquals(NodeCopies.State.OFF, admin.state(1));
      services[1].close(); // the whole node off: its NameNode and index server stop
      services[1] = null;

      assertAnswersAt(0, before);
      assertAnswersAt(2, before);
      Map<String, Integer> lowGear = putAt(2, "/low", 40);
      assertAnswersAt(0, lowGear);
      assertNotNull(copied(2).copyIncarnation(), "node 2 serves node 1 from its copy");

      restart(1);
      assertNull(services[1].node(), "node 1 started again while off serves nothing");
      ReturnShipped shipped = admin.nodeReturning(1);
      assertTrue(shipped.own().pages() > 0, "node 1's pages changed by its copy: " + shipped);
      assertTrue(shipped.own().bytes() > 0, shipped.toString());
      assertEquals(NodeCopies.State.RETURNING, admin.state(1));

      admin.nodeBack(1);
      assertEquals(NodeCopies.State.ON, admin.state(1));
      assertNull(copied(2).copyIncarnation(), "node 2's copy follows node 1 again");
      assertAnswersAt(1, before);
      assertAnswersAt(1, lowGear);
    }
    VerificationReport report = verifyAllOn();
    assertTrue(report.isSound(), report.toString());
  }

  @Test
  void theGearsHandOverFindsAHostsIndexNodeByItsPeerEntryAndWaitsForItToComeBack()
      throws Exception {
    startAll(true);
    Map<String, Integer> before = putAt(0, "/data", 40);
    IndexAdminHandOver handOver = new IndexAdminHandOver(conf(0, true), 20_000);
    assertTrue(IndexAdminHandOver.configured(conf(0, true)));

    handOver.toCopy("127.0.0.2");
    assertNotNull(copied(2).copyIncarnation(), "node 2 serves node 1 from its copy");
    services[1].close();
    services[1] = null;
    Map<String, Integer> lowGear = putAt(0, "/low", 30);
    CompletableFuture<Void> started = CompletableFuture.runAsync(() -> {
      try {
        Thread.sleep(1_000); // the node's NameNode takes a while to start its plug-in
        restart(1);
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });
    ReturnShipped shipped = handOver.returning("127.0.0.2");
    started.join();
    assertTrue(shipped.own().pages() > 0, shipped.toString());
    handOver.back("127.0.0.2");

    assertNull(copied(2).copyIncarnation());
    assertAnswersAt(1, before);
    assertAnswersAt(1, lowGear);
    IOException e = assertThrows(IOException.class, () -> handOver.toCopy("127.0.0.9"));
    assertTrue(e.getMessage().contains("no index node on 127.0.0.9"), e.getMessage());
  }

  @Test
  void withoutTheKeyANodeKeepsNoCopyAndCannotBeSwitchedOff() throws Exception {
    startAll(false);
    assertTrue(services[0].copies().isEmpty());
    putAt(0, "/data", 10);
    try (IndexAdminClient admin = IndexAdminClient.connect(conf(2, false), address(2))) {
      assertThrows(IOException.class, () -> admin.nodeOff(1),
          "no switch administration on a node without copies");
    }
  }

  @Test
  void copiesOnOneNodeAreRefusedNamingTheKey() {
    peers.put(0, "127.0.0.1:0");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> IndexNodeService.start(conf(0, true), null));
    assertTrue(e.getMessage().contains(NdCouplingConfigKeys.INDEX_COPIES), e.getMessage());
  }
}
