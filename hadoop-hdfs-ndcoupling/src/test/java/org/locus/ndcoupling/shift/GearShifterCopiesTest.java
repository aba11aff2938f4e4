package org.locus.ndcoupling.shift;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.ipc.ProtocolSignature;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.locus.ndcoupling.fatbtree.store.PagesShipped;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;
import org.locus.ndcoupling.gear.GearUpReport;
import org.locus.ndcoupling.rpc.GearProtocol;

/**
 * The order of a gear shift over coupled nodes whose partitions have copies, on three
 * partitions (ns1..ns3 at h1..h3, each copied on the next host) with gear 0 = h1, h3: every
 * NameNode here is an in-memory gear service that answers only while its host is on, so the
 * shifter's sequence (hand over, shift, follow, switch off; switch on, catch up, gear-up,
 * follow, hand back) is checked call by call, and with the Fat-Btree index's copies the index
 * node's hand-over, step 1 and return among them. The real sequence on a netns cluster is
 * NetnsCoupledNodesTest's (locus-cli, its gears half).
 */
class GearShifterCopiesTest {
  private static final List<String> HOSTS = List.of("h1", "h2", "h3");
  private final List<String> events = new ArrayList<>();
  private final Map<String, Boolean> hostOn = new LinkedHashMap<>();
  private final Map<String, Map<String, NameNode>> partitions = new LinkedHashMap<>();
  private long activeTxId = 100;

  @BeforeEach
  void threeCoupledNodes() {
    HOSTS.forEach(h -> hostOn.put(h, true));
    for (int k = 1; k <= 3; k++) {
      String home = "h" + k;
      String copy = "h" + (k % 3 + 1);
      Map<String, NameNode> pair = new LinkedHashMap<>();
      pair.put(home, new NameNode("ns" + k, home, "active"));
      pair.put(copy, new NameNode("ns" + k, copy, "standby"));
      partitions.put("ns" + k, pair);
    }
  }

  private PartitionCopies copies() {
    Map<String, Map<String, GearProtocol>> nameNodes = new LinkedHashMap<>();
    Map<String, String> homes = new LinkedHashMap<>();
    partitions.forEach((ns, pair) -> {
      nameNodes.put(ns, new LinkedHashMap<>(pair));
      homes.put(ns, pair.keySet().iterator().next());
    });
    PartitionHandOver handOver = new PartitionHandOver() {
      @Override
      public void makeActive(String ns, String id) {
        events.add("hand " + ns + " to " + id);
        partitions.get(ns).values().forEach(n -> n.ha = n.host.equals(id) ? "active" : "standby");
      }

      @Override
      public void refreshReturning(String ns, String id, Collection<String> hosts) {
        events.add("refresh " + ns + "@" + id + " from " + String.join(",", hosts));
      }

      @Override
      public void rollEdits(String ns, String id) {
        events.add("roll " + ns + "@" + id);
      }
    };
    return new PartitionCopies(nameNodes, homes, handOver, 5_000);
  }

  private GearShifter shifter() {
    Map<String, GearProtocol> homes = new LinkedHashMap<>();
    partitions.forEach((ns, pair) -> homes.put(ns, pair.values().iterator().next()));
    NodeSwitch nodes = new NodeSwitch() {
      @Override
      public void off(String host) {
        events.add("off " + host);
        hostOn.put(host, false);
      }

      @Override
      public void on(String host) {
        events.add("on " + host);
        hostOn.put(host, true);
        // a NameNode comes back as a standby, behind the active by the edits of the low gear
        partitions.values().forEach(pair -> pair.values().stream()
            .filter(n -> n.host.equals(host)).forEach(n -> {
              n.ha = "standby";
              n.txid = activeTxId - 7;
              n.answered = false;
            }));
      }
    };
    return new GearShifter(homes, nodes, 5_000, line -> { }).withCopies(copies());
  }

  /** A node switch that only records what it was asked. */
  private NodeSwitch recordingSwitch() {
    return new NodeSwitch() {
      @Override
      public void off(String host) {
        events.add("off " + host);
      }

      @Override
      public void on(String host) {
        events.add("on " + host);
      }
    };
  }

  @Test
  void downHandsTheLeavingNodesPartitionToItsCopyBeforeAnythingShiftsAndSwitchesTheNodeOffLast()
      throws Exception {
    List<String> off = shifter().down(0);

    assertEquals(List.of("h2"), off);
    assertEquals("hand ns2 to h3", events.get(0), events.toString());
    assertEquals("off h2", events.get(events.size() - 1), events.toString());
    for (String ns : partitions.keySet()) {
      String active = ns.equals("ns2") ? "h3" : "h" + ns.charAt(2);
      assertTrue(events.contains("shiftDown " + ns + "@" + active + " 0"), ns + ": " + events);
    }
    assertTrue(events.contains("follow ns2@h2 0"), "ns2's home follows as a standby: " + events);
    assertTrue(events.contains("follow ns1@h2 0"), "ns1's copy on h2 follows: " + events);
    assertTrue(events.contains("follow ns3@h1 0"), events.toString());
    assertTrue(events.indexOf("hand ns2 to h3") < events.indexOf("shiftDown ns2@h3 0"));
  }

  @Test
  void upCatchesTheReturningNameNodeUpBeforeTheGearUpAndHandsItsPartitionBackAfter()
      throws Exception {
    GearShifter shifter = shifter();
    shifter.down(0);
    events.clear();
    activeTxId += 7; // the low gear's writes, logged by the active NameNodes

    shifter.upAll(1, "batch", "batch");

    assertEquals("on h2", events.get(0), events.toString());
    int caughtUp = events.indexOf("caught up ns2@h2");
    assertTrue(caughtUp > 0, "the returning NameNode applied the missed edits: " + events);
    for (String ns : partitions.keySet()) {
      String active = ns.equals("ns2") ? "h3" : "h" + ns.charAt(2);
      int gearUp = events.indexOf("gearUp " + ns + "@" + active + " 1");
      assertTrue(gearUp > caughtUp, ns + "'s gear-up runs on its active NameNode after the"
          + " catch-up: " + events);
      // The active NameNode hears afresh from the returning DataNode before its gear-up:
      // one that became active while h2 was off would keep the stand-ins' extra replicas.
      int refreshed = events.indexOf("refresh " + ns + "@" + active + " from h2");
      assertTrue(refreshed > caughtUp && refreshed < gearUp, ns + ": " + events);
      // Its edit log rolls once h2 is back, so h2's JournalNode takes its writes again before
      // the gear-up: until then one more lost JournalNode would stop the NameNode.
      int rolled = events.indexOf("roll " + ns + "@" + active);
      assertTrue(rolled > caughtUp && rolled < gearUp, ns + ": " + events);
    }
    assertTrue(events.contains("follow ns2@h3 1") || events.contains("follow ns2@h2 1"),
        events.toString());
    assertEquals("hand ns2 to h2", events.get(events.size() - 1), events.toString());
    assertEquals("active", partitions.get("ns2").get("h2").ha);
    long[] catchUp = shifter.catchUps().get("ns2");
    assertEquals(107, catchUp[1], "caught up to the active's last edit, written in low gear");
    assertEquals(List.of("ns2"), new ArrayList<>(shifter.catchUps().keySet()));
  }

  /**
   * The index nodes' hand-over as the index does it: a node is handed to its copy only while
   * it and its copy's host are on, and its step 1 ships only to an index server that answers
   * (its host on) and only while it is off.
   */
  private final class Index implements IndexHandOver {
    final Map<String, String> state = new LinkedHashMap<>();
    final ReturnShipped shipped = new ReturnShipped(new PagesShipped(5, 2_000, true, 3),
        new PagesShipped(2, 700, false, 1));

    Index() {
      HOSTS.forEach(h -> state.put(h, "ON"));
    }

    @Override
    public void toCopy(String host) throws IOException {
      String holder = "h" + (Integer.parseInt(host.substring(1)) % 3 + 1);
      if (!hostOn.get(host) || !hostOn.get(holder)) {
        throw new ConnectException("index node on " + host + " or its copy on " + holder
            + " is off");
      }
      events.add("index off " + host);
      state.put(host, "OFF");
    }

    @Override
    public ReturnShipped returning(String host) throws IOException {
      if (!hostOn.get(host) || !"OFF".equals(state.get(host))) {
        throw new IOException("index node on " + host + " cannot return: host "
            + (hostOn.get(host) ? "on" : "off") + ", index " + state.get(host));
      }
      events.add("index returning " + host);
      state.put(host, "RETURNING");
      return shipped;
    }

    @Override
    public void back(String host) throws IOException {
      if (!"RETURNING".equals(state.get(host))) {
        throw new IOException("index node on " + host + " is " + state.get(host));
      }
      events.add("index back " + host);
      state.put(host, "ON");
    }
  }

  @Test
  void downHandsTheLeavingNodesIndexNodeToItsCopyAfterItsPartitionAndBeforeAnythingShifts()
      throws Exception {
    Index index = new Index();
    List<String> off = shifter().withIndexCopies(index).down(0);

    assertEquals(List.of("h2"), off);
    assertEquals(List.of("hand ns2 to h3", "index off h2"), events.subList(0, 2),
        events.toString());
    assertEquals("off h2", events.get(events.size() - 1), events.toString());
    assertEquals("OFF", index.state.get("h2"));
    assertEquals("ON", index.state.get("h1"));
  }

  @Test
  void upShipsTheIndexPagesAfterTheCatchUpBeforeTheGearUpsAndTakesTheIndexNodeBackLast()
      throws Exception {
    Index index = new Index();
    GearShifter shifter = shifter().withIndexCopies(index);
    shifter.down(0);
    events.clear();
    activeTxId += 7;

    shifter.upAll(1, "batch", "batch");

    int on = events.indexOf("on h2");
    int caughtUp = events.indexOf("caught up ns2@h2");
    int shipped = events.indexOf("index returning h2");
    assertTrue(on == 0 && caughtUp > on && shipped > caughtUp,
        "step 1: the node on, its NameNode caught up, then its index pages shipped: " + events);
    for (String ns : partitions.keySet()) {
      String active = ns.equals("ns2") ? "h3" : "h" + ns.charAt(2);
      assertTrue(events.indexOf("gearUp " + ns + "@" + active + " 1") > shipped,
          ns + "'s gear-up after the index's step 1: " + events);
    }
    assertEquals(List.of("hand ns2 to h2", "index back h2"),
        events.subList(events.size() - 2, events.size()), events.toString());
    assertEquals(Map.of("h2", index.shipped), shifter.indexShipped());
    assertEquals("ON", index.state.get("h2"));
  }

  @Test
  void aRefusedIndexHandOverStopsTheShiftBeforeAnythingShiftsOrIsSwitchedOff() {
    GearShifter shifter = shifter().withIndexCopies(new IndexHandOver() {
      @Override
      public void toCopy(String host) throws IOException {
        throw new IOException("node 2 cannot be switched off: its copy is on node 3, which is"
            + " OFF");
      }

      @Override
      public ReturnShipped returning(String host) {
        throw new AssertionError("no step 1 on the way down");
      }

      @Override
      public void back(String host) {
        throw new AssertionError("nothing to take back");
      }
    });

    IOException e = assertThrows(IOException.class, () -> shifter.down(0));
    assertTrue(e.getMessage().contains("index node on h2") && e.getMessage().contains("ns2"),
        e.getMessage());
    assertTrue(events.stream().noneMatch(s -> s.startsWith("off") || s.startsWith("shiftDown")),
        events.toString());
  }

  @Test
  void indexCopiesWithoutPartitionCopiesAreRefused() {
    Map<String, GearProtocol> homes = new LinkedHashMap<>();
    partitions.forEach((ns, pair) -> homes.put(ns, pair.values().iterator().next()));
    GearShifter shifter = new GearShifter(homes, recordingSwitch(), 5_000, line -> { }).withIndexCopies(new Index());

    assertThrows(IllegalStateException.class, () -> shifter.down(0));
    assertTrue(events.isEmpty(), events.toString());
  }

  @Test
  void aRefusedHandOverStopsTheShiftBeforeAnyNodeIsOff() {
    Map<String, Map<String, GearProtocol>> nameNodes = new LinkedHashMap<>();
    Map<String, String> homes = new LinkedHashMap<>();
    partitions.forEach((ns, pair) -> {
      nameNodes.put(ns, new LinkedHashMap<>(pair));
      homes.put(ns, pair.keySet().iterator().next());
    });
    PartitionCopies refusing = new PartitionCopies(nameNodes, homes, new PartitionHandOver() {
      @Override
      public void makeActive(String ns, String id) throws IOException {
        throw new IOException("ZKFC of " + id + " is not running");
      }

      @Override
      public void refreshReturning(String ns, String id, Collection<String> hosts) {
        events.add("refresh " + ns + "@" + id);
      }

      @Override
      public void rollEdits(String ns, String id) {
        events.add("roll " + ns + "@" + id);
      }
    }, 5_000);
    Map<String, GearProtocol> first = new LinkedHashMap<>();
    partitions.forEach((ns, pair) -> first.put(ns, pair.values().iterator().next()));
    GearShifter shifter = new GearShifter(first, recordingSwitch(), 5_000, line -> { }).withCopies(refusing);

    IOException e = assertThrows(IOException.class, () -> shifter.down(0));
    assertTrue(e.getMessage().contains("ZKFC of h3"), e.getMessage());
    assertTrue(events.stream().noneMatch(s -> s.startsWith("off") || s.startsWith("shiftDown")),
        events.toString());
  }

  @Test
  void homedOnNamesThePartitionsOfTheGivenNodes() {
    PartitionCopies copies = copies();
    assertEquals(List.of("ns2"), copies.homedOn(List.of("h2")));
    assertEquals(List.of("ns1", "ns3"), copies.homedOn(List.of("h3", "h1")));
    assertEquals("h3", copies.copyId("ns2"));
    assertArrayEquals(new String[] {"ns1", "ns2", "ns3"},
        copies.partitions().toArray(new String[0]));
  }

  /** A NameNode's gear service: answers while its host is on. */
  private final class NameNode implements GearProtocol {
    final String ns;
    final String host;
    String ha;
    long txid;
    int level = 1;
    /** whether it answered since it started: it tails edits from its first answer on */
    boolean answered = true;

    NameNode(String ns, String host, String ha) {
      this.ns = ns;
      this.host = host;
      this.ha = ha;
      this.txid = activeTxId;
    }

    private void reachable() throws IOException {
      if (!hostOn.get(host)) {
        throw new ConnectException(host + " is off");
      }
    }

    @Override
    public String status() throws IOException {
      reachable();
      if (ha.equals("standby") && txid < activeTxId && answered) {
        txid += 2; // tails the shared edits a few at a time
        if (txid >= activeTxId) {
          txid = activeTxId;
          events.add("caught up " + ns + "@" + host);
        }
      }
      answered = true;
      StringBuilder text = new StringBuilder("gear=" + level + "\ntop-gear=1\nnamenode=" + host
          + "\nha-state=" + ha + "\ntxid=" + (ha.equals("active") ? activeTxId : txid)
          + "\nsafemode=false\n");
      for (String h : HOSTS) {
        boolean inGear = !h.equals("h2") || level >= 1;
        text.append("node.").append(h).append('=').append(inGear ? "on" : "off")
            .append(" admin=").append(inGear ? "NORMAL" : "IN_MAINTENANCE")
            .append(" live=").append(hostOn.get(h))
            .append(" group=").append(h.equals("h2") ? 1 : 0).append('\n');
      }
      return text.toString();
    }

    @Override
    public String shiftDown(int target) throws IOException {
      reachable();
      events.add("shiftDown " + ns + "@" + host + " " + target);
      level = target;
      return "gear=" + target + "\nleaving=h2\n";
    }

    @Override
    public String followGear(int target) throws IOException {
      reachable();
      events.add("follow " + ns + "@" + host + " " + target);
      level = target;
      return "gear=" + target + "\n";
    }

    @Override
    public String startGearUp(int target, String issuance, String transfer) throws IOException {
      reachable();
      events.add("gearUp " + ns + "@" + host + " " + target);
      level = target;
      return new GearUpReport("done", 4, issuance, transfer, "h2", 0, 0, 0, 0,
          new long[] {1, 1, 1, 1}, 0, 0, -1, "").toText();
    }

    @Override
    public String gearUpProgress() {
      return "state=done\n";
    }

    @Override
    public long getProtocolVersion(String protocol, long clientVersion) {
      return versionID;
    }

    @Override
    public ProtocolSignature getProtocolSignature(String protocol, long clientVersion,
        int clientMethodsHash) {
      return null;
    }
  }
}
