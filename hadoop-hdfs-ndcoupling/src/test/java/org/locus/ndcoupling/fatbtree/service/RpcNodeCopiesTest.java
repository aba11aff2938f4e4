package org.locus.ndcoupling.fatbtree.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.locus.ndcoupling.fatbtree.FatBtreeNode;
import org.locus.ndcoupling.fatbtree.IncarnationStoppedException;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.locus.ndcoupling.fatbtree.NodeCopies;
import org.locus.ndcoupling.fatbtree.Page;
import org.locus.ndcoupling.fatbtree.PageChanges;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.VerificationReport;
import org.locus.ndcoupling.fatbtree.store.PageCodec;
import org.locus.ndcoupling.fatbtree.store.PageDirectory;
import org.locus.ndcoupling.fatbtree.store.PageStore;
import org.locus.ndcoupling.fatbtree.store.PagesShipped;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;
import org.locus.ndcoupling.fatbtree.transport.IndexAdminClient;
import org.locus.ndcoupling.fatbtree.transport.IndexClient;

/**
 * {@code NodeCopiesTest} over Hadoop RPC: four index nodes with copies, each its own server on
 * its own loopback address and its own directories; node 1 (leaf /b) is switched off whole
 * through the switch administration (its server stopped, as a node powered off), its copy on
 * node 2 answers for its keys, step 1 ships exactly the pages changed meanwhile once its server
 * runs again, and it comes back. Node 0's copy, kept by node 1, goes away with it: node 0 logs
 * for it, and step 1 ships those changes too.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpcNodeCopiesTest {

  private static final int NODES = 4;
  private static final int OFF = 1;
  /** The lease of a gate closed by a coordinator that dies in the test. */
  private static final long LEASE_MS = 300;

  @TempDir
  Path dir;

  private final TreeMap<PathKey, Integer> reference = new TreeMap<>();
  private RpcIndexCluster cluster;

  @AfterEach
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private RpcIndexCluster start() throws IOException {
    cluster = RpcIndexCluster.startWithCopies(dir, NODES, "/b", "/c", "/d");
    for (int i = 0; i < 120; i++) {
      put(i % NODES, key(i), i % 7);
    }
    return cluster;
  }

  /** Keys spread over the four first leaves, most of them under /b (node 1's). */
  private static PathKey key(int i) {
    String top = i % 3 == 0 ? "/" + (char) ('a' + i % 4) : "/b";
    return PathKey.of(top + "/s" + (i % 5) + "/f" + i);
  }

  private void put(int at, PathKey key, int owner) {
    assertEquals(opt(reference.put(key, owner)), cluster.at(at, n -> n.put(key, owner)),
        "put " + key + " at node " + at);
  }

  private void remove(int at, PathKey key) {
    assertEquals(reference.remove(key) != null, cluster.at(at, n -> n.remove(key)),
        "remove " + key + " at node " + at);
  }

  private static OptionalInt opt(Integer value) {
    return value == null ? OptionalInt.empty() : OptionalInt.of(value);
  }

  private static long bytesOf(List<Long> ids, Map<Long, Page> now) {
    return ids.stream().map(now::get).filter(Objects::nonNull)
        .mapToLong(p -> PageCodec.encode(p).length).sum();
  }

  /** Every incarnation answers every reference key, and scans the whole tree as it. */
  private void assertAgreesWithReference(List<PathKey> absent) {
    List<IndexEntry> all = reference.entrySet().stream()
        .map(e -> new IndexEntry(e.getKey(), e.getValue())).collect(Collectors.toList());
    for (int n = 0; n < NODES; n++) {
      for (Map.Entry<PathKey, Integer> e : reference.entrySet()) {
        assertEquals(OptionalInt.of(e.getValue()), cluster.at(n, x -> x.lookup(e.getKey())),
            "node " + n + " looking up " + e.getKey());
      }
      for (PathKey k : absent) {
        if (!reference.containsKey(k)) {
          assertEquals(OptionalInt.empty(), cluster.at(n, x -> x.lookup(k)),
              "node " + n + " looking up removed " + k);
        }
      }
      assertEquals(all, cluster.at(n, x -> x.scan(PathKey.ROOT, null)), "full scan at " + n);
    }
  }

  private void checkSubtreeScan(String dirName) {
    PathKey d = PathKey.of(dirName);
    List<IndexEntry> expected = reference.subMap(d, d.subtreeEnd()).entrySet().stream()
        .map(e -> new IndexEntry(e.getKey(), e.getValue())).collect(Collectors.toList());
    for (int n = 0; n < NODES; n++) {
      assertEquals(expected, cluster.at(n, x -> x.scanSubtree(d)), "scan of " + d + " at " + n);
    }
  }

  private void assertSound() throws IOException {
    VerificationReport report = cluster.verifyWithCopies();
    assertTrue(report.isSound(), report.toString());
  }

  private void switchOff(int node) throws IOException {
    try (IndexAdminClient admin = cluster.admin()) {
      admin.nodeOff(node);
    }
    cluster.stopHost(node);
  }

  /** Step 1 for {@code node}, its server started again first unless it runs. */
  private ReturnShipped returning(int node) throws IOException {
    if (cluster.host(node) == null) {
      cluster.startHost(node);
    }
    try (IndexAdminClient admin = cluster.admin()) {
      return admin.nodeReturning(node);
    }
  }

  private void back(int node) throws IOException {
    try (IndexAdminClient admin = cluster.admin()) {
      admin.nodeBack(node);
    }
  }

  private NodeCopies.State state(int node) throws IOException {
    try (IndexAdminClient admin = cluster.admin()) {
      return admin.state(node);
    }
  }

  @Test
  void theCopyOfAnOffNodeAnswersLookupsUpdatesSplitsAndScansForItsKeys() throws IOException {
    start();
    assertEquals(2, cluster.holderOf(OFF));
    FatBtreeNode own = cluster.serving(OFF);
    Map<Long, Page> ownAtOff = PageChanges.pagesOf(cluster.host(OFF).ownStore());
    int rootLevel = own.root().level();

    switchOff(OFF);

    assertEquals(NodeCopies.State.OFF, state(OFF));
    assertThrows(IncarnationStoppedException.class, () -> own.lookup(key(1)));
    try (IndexClient client = IndexClient.connect(cluster.conf(), cluster.peers().get(OFF))) {
      assertThrows(IOException.class, () -> client.lookup(key(1).path()),
          "node 1's server is stopped");
    }
    FatBtreeNode copy = cluster.serving(OFF);
    try (IndexClient client = IndexClient.connect(cluster.conf(),
        NetUtils.createSocketAddr(cluster.host(2).copyAddress(OFF)))) {
      assertEquals(OptionalInt.of(reference.get(key(1))), client.lookup(key(1).path()),
          "a client of the copy's server");
    }
    assertAgreesWithReference(List.of());
    for (int i = 120; i < 600; i++) {
      put(i % NODES, key(i), i % 11);
    }
    for (int i = 0; i < 600; i += 5) {
      remove((i + 1) % NODES, key(i));
    }
    checkSubtreeScan("/b");
    checkSubtreeScan("/b/s3");
    assertAgreesWithReference(List.of(key(5), key(10)));
    assertTrue(copy.counters().leafSplits.get() > 0, "the copy split node 1's leaves");
    assertTrue(copy.root().level() > rootLevel, "the root grew while node 1 was off");
    assertEquals(OFF, cluster.serving(0).leafNodeOf(key(1)), "S_i still names node 1");
    assertTrue(copy.storeDescription().contains("copy-of-node-1"), copy.storeDescription());
    assertEquals(ownAtOff, PageChanges.pagesOf(PageDirectory.open(cluster.dirOf(OFF), false)),
        "node 1's own pages untouched");
    assertSound();
  }

  @Test
  void stepOneShipsExactlyThePagesChangedWhileTheNodeWasOff() throws IOException {
    start();
    Map<Long, Page> ownAtOff = PageChanges.pagesOf(cluster.host(OFF).ownStore());
    Map<Long, Page> heldCopyAtOff = PageChanges.pagesOf(cluster.host(OFF).copyStore());
    switchOff(OFF);
    for (int i = 120; i < 400; i++) {
      put(i % NODES, key(i), i % 11);
    }
    remove(0, key(1));
    put(3, key(2), 99);
    Map<Long, Page> copyNow = PageChanges.pagesOf(cluster.host(2).copyStore());
    List<Long> expected = PageChanges.changed(ownAtOff, copyNow);
    Map<Long, Page> node0Now = PageChanges.pagesOf(cluster.host(0).ownStore());
    List<Long> expectedHeld = PageChanges.changed(heldCopyAtOff, node0Now);
    assertFalse(expectedHeld.isEmpty(), "node 0's leaf /a took keys while node 1 was off");

    ReturnShipped shipped = returning(OFF);

    assertEquals(expected.size(), shipped.own().pages(), shipped.toString());
    assertEquals(bytesOf(expected, copyNow), shipped.own().bytes(), shipped.toString());
    assertTrue(shipped.own().nodeFile(), "the root moved and page ids were reserved while off");
    assertEquals(expectedHeld.size(), shipped.heldCopy().pages(), shipped.toString());
    assertEquals(bytesOf(expectedHeld, node0Now), shipped.heldCopy().bytes(),
        shipped.toString());
    assertEquals(PageChanges.pagesOf(cluster.host(2).copyStore()), PageChanges.pagesOf(cluster.host(OFF).ownStore()));
    assertEquals(PageChanges.pagesOf(cluster.host(0).ownStore()), PageChanges.pagesOf(cluster.host(OFF).copyStore()));
    assertEquals(NodeCopies.State.RETURNING, state(OFF));
    assertNull(cluster.host(OFF).own(), "node 1 does not answer before it is back");
    put(2, key(401), 4);
    assertAgreesWithReference(List.of(key(1)));

    back(OFF);

    assertEquals(NodeCopies.State.ON, state(OFF));
    assertTrue(cluster.serving(OFF).storeDescription().startsWith(cluster.dirOf(OFF)
        .toString()), cluster.serving(OFF).storeDescription());
    assertNull(cluster.host(2).copyIncarnation());
    assertAgreesWithReference(List.of(key(1)));
    for (int i = 402; i < 500; i++) {
      put(i % NODES, key(i), i % 3);
    }
    assertAgreesWithReference(List.of(key(1)));
    assertSound();
  }

  @Test
  void aNodeOffWhileNothingChangedIsShippedNothing() throws IOException {
    start();
    switchOff(OFF);
    assertAgreesWithReference(List.of(PathKey.of("/b/none")));
    checkSubtreeScan("/b");
    PathKey existing = reference.keySet().stream().filter(k -> k.toString().startsWith("/b"))
        .findFirst().orElseThrow();
    put(0, existing, reference.get(existing));
    boolean removed = cluster.at(2, n -> n.remove(PathKey.of("/b/none")));
    assertFalse(removed, "/b/none was never there");

    ReturnShipped shipped = returning(OFF);

    assertEquals(new PagesShipped(0, 0, false, shipped.own().millis()), shipped.own());
    assertEquals(new PagesShipped(0, 0, false, shipped.heldCopy().millis()),
        shipped.heldCopy());
    back(OFF);
    assertAgreesWithReference(List.of());
    assertSound();
  }

  @Test
  void aChangeMadeAfterStepOneReachesTheReturningNodeToo() throws IOException {
    start();
    switchOff(OFF);
    put(0, PathKey.of("/b/before"), 1);
    assertEquals(1, returning(OFF).own().pages(), "one leaf changed");
    put(0, PathKey.of("/b/after"), 2);
    put(3, PathKey.of("/a/after"), 3);
    assertEquals(PageChanges.pagesOf(cluster.host(2).copyStore()), PageChanges.pagesOf(cluster.host(OFF).ownStore()),
        "written through to the returning node");
    assertEquals(PageChanges.pagesOf(cluster.host(0).ownStore()), PageChanges.pagesOf(cluster.host(OFF).copyStore()),
        "node 0 mirrors to the copy node 1 keeps again");
    back(OFF);
    assertEquals(OptionalInt.of(2), cluster.serving(OFF).lookup(PathKey.of("/b/after")));
    assertSound();
  }

  @Test
  void aNodeRestartedAfterItsReturnKeepsTheShippedPages() throws IOException {
    start();
    switchOff(OFF);
    for (int i = 120; i < 300; i++) {
      put(i % NODES, key(i), i % 5);
    }
    assertNotEquals(0, returning(OFF).own().pages());
    back(OFF);
    cluster.stopHost(OFF);
    FatBtreeNode restarted = cluster.startHost(OFF).own();
    for (PathKey k : reference.keySet()) {
      if (restarted.leafNodeOf(k) == OFF) {
        assertEquals(opt(reference.get(k)), restarted.lookup(k), "restarted node 1: " + k);
      }
    }
    assertAgreesWithReference(List.of());
    assertSound();
  }

  @Test
  void anOffNodeStartedAgainDoesNotAnswerForItsKeysUntilItIsBack() throws IOException {
    start();
    switchOff(OFF);
    put(3, key(500), 5);
    CopiedIndexNode started = cluster.startHost(OFF);
    assertNull(started.own(), "node 1 started again while switched off");
    try (IndexClient client = IndexClient.connect(cluster.conf(), started.address())) {
      IOException refused = assertThrows(IOException.class, () -> client.lookup("/b"));
      assertTrue(refused.getMessage().contains("not serving a node"), refused.getMessage());
    }
    assertEquals(NodeCopies.State.OFF, state(OFF));
    assertAgreesWithReference(List.of());
    returning(OFF);
    back(OFF);
    assertAgreesWithReference(List.of());
    assertSound();
  }

  @Test
  void theVerifierFindsACopyThatDiffersFromItsNode() throws IOException {
    start();
    assertSound();
    PageStore copyOfOne = cluster.host(2).copyStore();
    Page leaf = copyOfOne.all().stream().filter(p -> p.level() == 0).findFirst().orElseThrow();
    copyOfOne.remove(leaf.id());
    VerificationReport report = cluster.verifyWithCopies();
    assertFalse(report.isSound(), "a page missing from node 1's copy");
    assertTrue(report.problems().stream().anyMatch(problem -> problem.startsWith("node 1's ")
        && problem.contains("has no copy on") && problem.contains("copy-of-node-1")),
        report.toString());
  }

  private static String refusal(IOException e) {
    return e.getMessage();
  }

  @Test
  void aSwitchThatWouldLeaveAKeyWithoutAnAnsweringNodeIsRefused() throws IOException {
    start();
    switchOff(OFF);
    try (IndexAdminClient admin = cluster.admin()) {
      IOException holderBusy = assertThrows(IOException.class, () -> admin.nodeOff(2));
      assertTrue(refusal(holderBusy).contains("copy answering for node 1"),
          refusal(holderBusy));
      IOException holderOff = assertThrows(IOException.class, () -> admin.nodeOff(0));
      assertTrue(refusal(holderOff).contains("its copy is on node 1"), refusal(holderOff));
      IOException notShipped = assertThrows(IOException.class, () -> admin.nodeBack(OFF));
      assertTrue(refusal(notShipped).contains("node 1 is OFF, so it cannot be back"),
          refusal(notShipped));
      IOException notOff = assertThrows(IOException.class, () -> admin.nodeReturning(3));
      assertTrue(refusal(notOff).contains("node 3 is ON"), refusal(notOff));
    }
    switchOff(3);
    assertAgreesWithReference(List.of());
    for (int i = 120; i < 200; i++) {
      put(i % 2 == 0 ? 0 : 2, key(i), i % 4);
    }
    ReturnShipped one = returning(OFF);
    ReturnShipped three = returning(3);
    back(3);
    back(OFF);
    assertTrue(one.pages() > 0 && three.pages() > 0, one + "; " + three);
    assertAgreesWithReference(List.of());
    assertSound();
  }

  @Test
  void aSwitchLeftHalfDoneByItsCoordinatorIsCompletedByRunningItAgain() throws IOException {
    start();
    // a coordinator that died after the first steps of a switch-off: node 0 logs for node 1,
    // node 1 stopped, no copy serves; the gates open by their lease
    cluster.host(0).closeGate("dead", LEASE_MS);
    cluster.host(0).logForHolder();
    cluster.host(OFF).closeGate("dead", LEASE_MS);
    cluster.host(OFF).stopOwn();
    waitForTheLease();
    IOException late = assertThrows(IOException.class,
        () -> cluster.host(OFF).openGate("dead"), "the lease passed first");
    assertTrue(late.getMessage().contains("opened by itself"), late.getMessage());
    IOException refused = assertThrows(IOException.class, () -> cluster.host(2).startCopy(OFF));
    assertTrue(refused.getMessage().contains("closed operation gate"), refused.getMessage());
    assertEquals(NodeCopies.State.ON, state(OFF), "its copy does not serve yet");
    switchOff(OFF);
    assertEquals(NodeCopies.State.OFF, state(OFF));
    try (IndexAdminClient admin = cluster.admin()) {
      admin.nodeOff(OFF);
    }
    assertEquals(NodeCopies.State.OFF, state(OFF), "run again: nothing more to do");
    put(0, PathKey.of("/b/while-off"), 7);
    returning(OFF);
    // a coordinator that died in the middle of taking node 1 back: the copy stopped
    cluster.host(2).closeGate("dead-too", LEASE_MS);
    cluster.host(2).stopCopy(OFF);
    assertNull(cluster.serving(OFF), "no incarnation answers for node 1");
    waitForTheLease();
    back(OFF);
    assertEquals(NodeCopies.State.ON, state(OFF));
    assertAgreesWithReference(List.of());
    assertSound();
  }

  private static void waitForTheLease() {
    java.util.concurrent.locks.LockSupport.parkNanos(
        TimeUnit.MILLISECONDS.toNanos(LEASE_MS * 2));
  }

  @Test
  void aGateWhoseCoordinatorDiedOpensByItselfAndSaysSo() throws Exception {
    start();
    CopiedIndexNode node0 = cluster.host(0);
    node0.closeGate("dead-coordinator", LEASE_MS);
    long start = System.nanoTime();
    put(0, PathKey.of("/a/after-the-lease"), 1);
    assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(250),
        "the operation waited for the gate");
    IOException late = assertThrows(IOException.class,
        () -> node0.openGate("dead-coordinator"));
    assertTrue(late.getMessage().contains("opened by itself"), late.getMessage());
    assertEquals(1, node0.counters().gateLeasesExpired.get());
    node0.closeGate("one", 60_000);
    IOException second = assertThrows(IOException.class,
        () -> node0.closeGate("two", 60_000));
    assertTrue(second.getMessage().contains("held by switch one"), second.getMessage());
    node0.openGate("one");
    assertAgreesWithReference(List.of());
  }

  @Test
  void countsPagesMirroredShippedAndSwitches() throws IOException {
    start();
    long mirroredBefore = cluster.host(2).counters().pagesMirrored.get();
    assertTrue(mirroredBefore >= 120 / 4, "node 1's writes reached node 2: " + mirroredBefore);
    PathKey existing = reference.keySet().stream().filter(k -> k.toString().startsWith("/b"))
        .findFirst().orElseThrow();
    put(0, existing, reference.get(existing) + 1);
    assertEquals(mirroredBefore + 1, cluster.host(2).counters().pagesMirrored.get(),
        "a new owner in one leaf of node 1: one page mirrored");
    switchOff(OFF);
    put(0, PathKey.of("/b/while-off"), 1);
    ReturnShipped shipped = returning(OFF);
    back(OFF);
    CopyCounters holder = cluster.host(2).counters();
    assertEquals(shipped.own().pages(), holder.pagesShipped.get());
    assertEquals(shipped.own().bytes(), holder.bytesShipped.get());
    assertEquals(2, holder.switches.get(), "node 2 started and stopped node 1's copy");
    assertEquals(2, holder.gateClosures.get(), "off and back");
    assertEquals(1, cluster.host(OFF).counters().switches.get(), "node 1 started again");
    assertEquals(0, holder.gateLeasesExpired.get());
    Map<String, Number> published = new TreeMap<>();
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    DefaultMetricsSystem.instance().getSource(FatBtreeMetrics.sourceName(2))
        .getMetrics(collector, true);
    for (MetricsRecord record : collector.getRecords()) {
      for (AbstractMetric m : record.metrics()) {
        published.put(m.name(), m.value());
      }
    }
    assertEquals(holder.pagesMirrored.get(), published.get("PagesMirrored").longValue());
    assertEquals(shipped.own().pages(), published.get("PagesShipped").longValue());
    assertEquals(shipped.own().bytes(), published.get("BytesShipped").longValue());
    assertEquals(2L, published.get("Switches").longValue());
    assertEquals(2L, published.get("GateClosures").longValue());
    assertEquals(0L, published.get("GateLeasesExpired").longValue());
  }
}
