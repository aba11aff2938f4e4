package org.locus.ndcoupling.shift;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.locus.ndcoupling.fatbtree.store.ReturnShipped;
import org.locus.ndcoupling.gear.GearUpReport;
import org.locus.ndcoupling.gear.PartitionGearUps;
import org.locus.ndcoupling.rpc.GearProtocol;

/**
 * A gear shift from the operator's side: asks the gear service to shift, switches the leaving or
 * returning DataNodes off or on in between, and waits for each stage the NameNode must see
 * (maintenance before a node goes off; registration before gear-up starts).
 *
 * <p>On coupled nodes every partition's NameNode runs the gears for its own block pool, so the
 * shifter talks to all of them: each puts the leaving nodes into maintenance and must see them
 * gone; each must see the returning nodes registered; then every partition's gear-up starts at
 * once and the shift ends when the last one finishes ({@link #upAll}).
 *
 * <p>With metadata copies ({@link #withCopies}: each partition an HA pair, its copy on the next
 * node) a node switched off takes its NameNode along, so the shift moves the partitions of the
 * leaving nodes to their copies first; every partition's active NameNode checks and shifts, its
 * standbys follow its gear (the same nodes in maintenance, should they take over), then the
 * nodes go off whole. On the way up the returning nodes start, each returning NameNode catches
 * up on the edits its copy logged as a standby (timed: the seed's step 1, the metadata that
 * changed reaching the returning node), the active NameNodes run the gear-up (a copy that
 * served a partition in low gear holds its update log and reflects its writes), the standbys
 * follow, and each partition goes back to its own node.
 *
 * <p>With the Fat-Btree index's copies as well ({@link #withIndexCopies}), each leaving node's
 * index node is handed to its copy on the next node right after its partition, before anything
 * shifts; on the way up, once the returning NameNode has caught up, the index's step 1 ships
 * the returning index node the pages changed while it was off (timed and counted beside the
 * catch-up), and the index node answers for its pages again after its partition went home.
 */
public final class GearShifter {
  private static final long POLL_MS = 200;

  private final Map<String, GearProtocol> partitions;
  private final Map<String, long[]> catchUps = new LinkedHashMap<>();
  private final Map<String, ReturnShipped> indexShipped = new LinkedHashMap<>();
  private PartitionCopies copies;
  private IndexHandOver index;
  private final NodeSwitch nodes;
  private final long timeoutMs;
  private final Consumer<String> progress;

  public GearShifter(GearProtocol gears, NodeSwitch nodes, long timeoutMs,
      Consumer<String> progress) {
    this(Map.of("namenode", gears), nodes, timeoutMs, progress);
  }

  /**
   * @param partitions each partition's gear service by partition name (one entry for a cluster
   *     with one NameNode)
   */
  public GearShifter(Map<String, GearProtocol> partitions, NodeSwitch nodes, long timeoutMs,
      Consumer<String> progress) {
    if (partitions.isEmpty()) {
      throw new IllegalArgumentException("no gear service to shift");
    }
    this.partitions = new LinkedHashMap<>(partitions);
    this.nodes = nodes;
    this.timeoutMs = timeoutMs;
    this.progress = progress;
  }

  /**
   * Has this shifter switch whole coupled nodes, their NameNodes included, handing their
   * partitions to the copies (see the class comment).
   */
  public GearShifter withCopies(PartitionCopies copies) {
    this.copies = copies;
    return this;
  }

  /**
   * Has this shifter, switching whole nodes ({@link #withCopies}), also hand each node's
   * Fat-Btree index node to its copy and back, with the index's step 1 on the way up (see the
   * class comment).
   */
  public GearShifter withIndexCopies(IndexHandOver index) {
    this.index = index;
    return this;
  }

  /**
   * @return for each host that returned in the last {@link #upAll}, what the index's step 1
   *     shipped to its index node (empty without {@link #withIndexCopies})
   */
  public Map<String, ReturnShipped> indexShipped() {
    return indexShipped;
  }

  /**
   * @return for each partition whose node returned in the last {@link #upAll}: the ms from the
   *     switch-on until its returning NameNode had caught up, and the last edit it applied
   */
  public Map<String, long[]> catchUps() {
    return catchUps;
  }

  /** Points every partition with a copy at its active NameNode's gear service. */
  private void useActives() throws IOException {
    if (copies != null) {
      for (String ns : copies.partitions()) {
        partitions.put(ns, copies.active(ns));
      }
    }
  }

  /** @return the hosts on now that are not in gear {@code level}, from the status of one */
  private List<String> leavingFor(int level) throws IOException {
    Map<String, String> status = parse(partitions.values().iterator().next().status());
    List<String> leaving = new ArrayList<>();
    for (Map.Entry<String, String> e : status.entrySet()) {
      Map<String, String> node = words(e.getValue());
      if (e.getKey().startsWith("node.") && "on".equals(node.get(""))
          && Integer.parseInt(node.getOrDefault("group", "-1")) > level) {
        leaving.add(e.getKey().substring("node.".length()));
      }
    }
    return leaving;
  }

  /**
   * Shifts down: the NameNode checks that no block is stranded (else the IOException says which)
   * and puts the leaving nodes into maintenance; once it lists them in maintenance they are
   * switched off, and the shift ends when the NameNode no longer hears their heartbeats.
   *
   * @return the hosts switched off
   */
  public List<String> down(int level) throws IOException {
    requireCopiesForIndex();
    if (copies != null) {
      useActives();
      List<String> leavingHosts = leavingFor(level);
      List<String> handed = new ArrayList<>();
      for (String ns : copies.homedOn(leavingHosts)) {
        copies.moveToCopy(ns);
        handed.add(ns);
        progress.accept("  " + ns + ": served by its copy (NameNode " + copies.copyId(ns) + ")");
      }
      if (index != null) {
        for (String host : leavingHosts) {
          try {
            index.toCopy(host);
          } catch (IOException e) {
            throw new IOException("the index node on " + host + " was not handed to its copy ("
                + firstLine(e) + "); " + (handed.isEmpty() ? "no partition"
                    : String.join(",", handed)) + " served by its copy, nothing shifted, no"
                + " node switched off", e);
          }
          progress.accept("  " + host + ": index node served by its copy");
        }
      }
      useActives();
    }
    List<String> leaving = new ArrayList<>();
    List<String> shifted = new ArrayList<>();
    for (Map.Entry<String, GearProtocol> p : partitions.entrySet()) {
      Map<String, String> reply;
      try {
        reply = parse(p.getValue().shiftDown(level));
      } catch (IOException e) {
        if (shifted.isEmpty()) {
          throw e;
        }
        throw new IOException(p.getKey() + " refused the shift (" + firstLine(e) + "); "
            + String.join(",", shifted) + " already shifted to gear " + level + " with the"
            + " leaving nodes in maintenance, no node switched off: shift them back up", e);
      }
      shifted.add(p.getKey());
      for (String host : hosts(reply.get("leaving"))) {
        if (!leaving.contains(host)) {
          leaving.add(host);
        }
      }
    }
    if (copies != null) {
      for (GearProtocol standby : copies.standbys()) {
        standby.followGear(level);
      }
    }
    progress.accept("gear " + level + ": " + leaving.size() + " nodes enter maintenance: "
        + String.join(",", leaving));
    waitFor(leaving, "admin=IN_MAINTENANCE", "enter maintenance");
    for (String host : leaving) {
      nodes.off(host);
      progress.accept("  " + host + ": off");
    }
    // Until the NameNode stops hearing them, a node switched on again would look as if it had
    // registered already.
    waitFor(leaving, "live=false", "stop heartbeating");
    return leaving;
  }

  /**
   * Shifts up: switches the returning nodes on, waits until the NameNode lists them live, and
   * runs the gear-up, reporting each step as it ends.
   *
   * @return the gear-up's final report (on coupled nodes every partition's, combined)
   */
  public GearUpReport up(int level, String issuance, String transfer) throws IOException {
    return upAll(level, issuance, transfer).combined();
  }

  /**
   * {@link #up}, with each partition's own report and the wall time from the first partition's
   * start until the last one's end.
   */
  public PartitionGearUps upAll(int level, String issuance, String transfer)
      throws IOException {
    requireCopiesForIndex();
    useActives();
    GearProtocol first = partitions.values().iterator().next();
    Map<String, String> status = parse(first.status());
    int current = Integer.parseInt(status.get("gear"));
    if (level <= current) {
      throw new IOException("gear " + level + " is not above the current gear " + current);
    }
    List<String> returning = new ArrayList<>();
    for (Map.Entry<String, String> e : status.entrySet()) {
      Map<String, String> node = words(e.getValue());
      if (e.getKey().startsWith("node.") && "off".equals(node.get(""))
          && Integer.parseInt(node.getOrDefault("group", "-1")) <= level) {
        returning.add(e.getKey().substring("node.".length()));
      }
    }
    long switchedOn = System.nanoTime();
    for (String host : returning) {
      nodes.on(host);
      progress.accept("  " + host + ": on");
    }
    catchUps.clear();
    if (copies != null) {
      for (String ns : copies.homedOn(returning)) {
        long[] caught = copies.awaitHomeCaughtUp(ns, switchedOn);
        catchUps.put(ns, caught);
        progress.accept(String.format("  %s step 1 metadata %8d ms (NameNode %s started and"
            + " caught up to edit %d)", ns, caught[0], copies.homeId(ns), caught[1]));
      }
    }
    indexShipped.clear();
    if (index != null) {
      for (String host : returning) {
        long start = System.nanoTime();
        ReturnShipped shipped = index.returning(host);
        indexShipped.put(host, shipped);
        progress.accept(String.format("  %s step 1 index    %8d ms (%d pages, %d bytes shipped"
            + " to its index node: %s)", host, (System.nanoTime() - start) / 1_000_000,
            shipped.pages(), shipped.bytes(), shipped));
      }
    }
    waitFor(returning, "live=true", "register with the NameNode");
    if (copies != null) {
      copies.refreshReturning(returning);
    }
    PartitionGearUps ups = gearUpAll(level, issuance, transfer);
    if (copies != null) {
      for (GearProtocol standby : copies.standbys()) {
        standby.followGear(level);
      }
      for (String ns : copies.homedOn(returning)) {
        copies.moveHome(ns);
        progress.accept("  " + ns + ": back on its own node (NameNode " + copies.homeId(ns)
            + ")");
      }
      if (index != null) {
        for (String host : returning) {
          index.back(host);
          progress.accept("  " + host + ": index node answers for its pages again");
        }
      }
      useActives();
    }
    return ups;
  }

  /**
   * Starts the gear-up on every partition at once (the returning nodes registered already) and
   * waits until each has finished, reporting each partition's steps as they end.
   */
  public PartitionGearUps gearUpAll(int level, String issuance, String transfer)
      throws IOException {
    long start = System.nanoTime();
    Map<String, GearUpReport> reports = new LinkedHashMap<>();
    for (Map.Entry<String, GearProtocol> p : partitions.entrySet()) {
      reports.put(p.getKey(), GearUpReport.parse(p.getValue().startGearUp(level, issuance,
          transfer)));
    }
    Map<String, Integer> shown = new LinkedHashMap<>();
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      boolean running = false;
      for (Map.Entry<String, GearProtocol> p : partitions.entrySet()) {
        GearUpReport report = reports.get(p.getKey());
        if ("running".equals(report.state())) {
          report = GearUpReport.parse(p.getValue().gearUpProgress());
          reports.put(p.getKey(), report);
        }
        shown.put(p.getKey(), showSteps(p.getKey(), report,
            shown.getOrDefault(p.getKey(), 0)));
        running |= "running".equals(report.state());
      }
      if (!running) {
        break;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("gear-up still running after " + timeoutMs + " ms; it goes on"
            + " in the NameNode: see gear status");
      }
      sleep();
    }
    return new PartitionGearUps(reports, (System.nanoTime() - start) / 1_000_000);
  }

  private void requireCopiesForIndex() {
    if (index != null && copies == null) {
      throw new IllegalStateException("the index's copies are switched with whole nodes: give"
          + " the shifter the partitions' copies (withCopies) too");
    }
  }

  private static String firstLine(IOException e) {
    String message = String.valueOf(e.getMessage());
    return message.lines().findFirst().orElse(message);
  }

  /** @return "on admin=X live=Y group=G" as {"": on, admin: X, ...} */
  private static Map<String, String> words(String line) {
    Map<String, String> words = new LinkedHashMap<>();
    for (String word : line.trim().split("\\s+")) {
      int eq = word.indexOf('=');
      if (eq < 0) {
        words.put("", word);
      } else {
        words.put(word.substring(0, eq), word.substring(eq + 1));
      }
    }
    return words;
  }

  private int showSteps(String partition, GearUpReport report, int shown) {
    String[] names = {"metadata", "issue", "transfer", "reflect"};
    int finished = "running".equals(report.state()) ? report.step() - 1 : 4;
    String prefix = partitions.size() == 1 ? "  " : "  " + partition + " ";
    for (int s = shown; s < finished; s++) {
      progress.accept(String.format("%sstep %d %-8s %8d ms", prefix, s + 1, names[s],
          report.stepMillis()[s]));
    }
    return Math.max(shown, finished);
  }

  private void waitFor(List<String> hosts, String state, String what) throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      List<String> waiting = new ArrayList<>();
      for (Map.Entry<String, GearProtocol> p : partitions.entrySet()) {
        Map<String, String> status = parse(p.getValue().status());
        for (String host : hosts) {
          String line = status.getOrDefault("node." + host, "");
          if (!line.contains(state) && !waiting.contains(host)) {
            waiting.add(host);
          }
        }
      }
      if (waiting.isEmpty()) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(String.join(",", waiting) + " did not " + what + " within "
            + timeoutMs + " ms" + (partitions.size() == 1 ? ""
                : " at every partition's NameNode"));
      }
      sleep();
    }
  }

  /** @return {@code key=value} lines as a map, in order */
  public static Map<String, String> parse(String text) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        fields.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return fields;
  }

  private static List<String> hosts(String list) {
    List<String> hosts = new ArrayList<>();
    if (list != null) {
      for (String h : list.split(",")) {
        if (!h.isBlank()) {
          hosts.add(h.trim());
        }
      }
    }
    return hosts;
  }

  private static void sleep() throws IOException {
    try {
      Thread.sleep(POLL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
