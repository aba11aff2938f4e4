package org.locus.ndcoupling.shift;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.locus.ndcoupling.gear.GearUpReport;
import org.locus.ndcoupling.rpc.GearProtocol;

/**
 * A gear shift from the operator's side: asks the NameNode's gear service to shift, switches the
 * leaving or returning DataNodes off or on in between, and waits for each stage the NameNode
 * must see (maintenance before a node goes off; registration before gear-up starts).
 */
public final class GearShifter {
  private static final long POLL_MS = 200;

  private final GearProtocol gears;
  private final NodeSwitch nodes;
  private final long timeoutMs;
  private final Consumer<String> progress;

  public GearShifter(GearProtocol gears, NodeSwitch nodes, long timeoutMs,
      Consumer<String> progress) {
    this.gears = gears;
    this.nodes = nodes;
    this.timeoutMs = timeoutMs;
    this.progress = progress;
  }

  /**
   * Shifts down: the NameNode checks that no block is stranded (else the IOException says which)
   * and puts the leaving nodes into maintenance; once it lists them in maintenance they are
   * switched off, and the shift ends when the NameNode no longer hears their heartbeats.
   *
   * @return the hosts switched off
   */
  public List<String> down(int level) throws IOException {
    Map<String, String> reply = parse(gears.shiftDown(level));
    List<String> leaving = hosts(reply.get("leaving"));
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
   * @return the gear-up's final report
   */
  public GearUpReport up(int level, String issuance, String transfer) throws IOException {
    Map<String, String> status = parse(gears.status());
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
    for (String host : returning) {
      nodes.on(host);
      progress.accept("  " + host + ": on");
    }
    waitFor(returning, "live=true", "register with the NameNode");
    GearUpReport report = GearUpReport.parse(gears.startGearUp(level, issuance, transfer));
    int shown = 0;
    long deadline = System.currentTimeMillis() + timeoutMs;
    while ("running".equals(report.state())) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("gear-up still running after " + timeoutMs + " ms (step "
            + report.step() + "); it goes on in the NameNode: see gear status");
      }
      shown = showSteps(report, shown);
      sleep();
      report = GearUpReport.parse(gears.gearUpProgress());
    }
    showSteps(report, shown);
    return report;
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

  private int showSteps(GearUpReport report, int shown) {
    String[] names = {"metadata", "issue", "transfer", "reflect"};
    int finished = "running".equals(report.state()) ? report.step() - 1 : 4;
    for (int s = shown; s < finished; s++) {
      progress.accept(String.format("  step %d %-8s %8d ms", s + 1, names[s],
          report.stepMillis()[s]));
    }
    return Math.max(shown, finished);
  }

  private void waitFor(List<String> hosts, String state, String what) throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      Map<String, String> status = parse(gears.status());
      List<String> waiting = new ArrayList<>();
      for (String host : hosts) {
        String line = status.getOrDefault("node." + host, "");
        if (!line.contains(state)) {
          waiting.add(host);
        }
      }
      if (waiting.isEmpty()) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(String.join(",", waiting) + " did not " + what + " within "
            + timeoutMs + " ms");
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
