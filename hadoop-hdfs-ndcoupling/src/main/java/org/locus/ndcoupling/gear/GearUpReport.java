package org.locus.ndcoupling.gear;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a gear-up did, step by step (seed 004 §4.3): how long each of the four steps took, how
 * much metadata and how many blocks it moved, and what it left pending. Travels as
 * {@code key=value} lines between the NameNode and the CLI.
 *
 * @param state running, done or failed
 * @param step the step running now (1-4), or 4 when finished
 * @param stepMillis each step's duration; a step not reached yet is 0
 */
public record GearUpReport(String state, int step, String issuance, String transfer,
    String returning, int entries, int files, int blocks, long metadataBytes, long[] stepMillis,
    int blocksMoved, int blocksPending, long connections, String reason) {

  /** @return the four steps' total, the reflection time */
  public long totalMillis() {
    long total = 0;
    for (long t : stepMillis) {
      total += t;
    }
    return total;
  }

  /** @return the report as {@code key=value} lines */
  public String toText() {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("state", state);
    fields.put("step", step);
    fields.put("issuance", issuance);
    fields.put("transfer", transfer);
    fields.put("returning", returning);
    fields.put("entries", entries);
    fields.put("files", files);
    fields.put("blocks", blocks);
    fields.put("metadata-bytes", metadataBytes);
    for (int s = 0; s < 4; s++) {
      fields.put("step" + (s + 1) + "-ms", stepMillis[s]);
    }
    fields.put("total-ms", totalMillis());
    fields.put("blocks-moved", blocksMoved);
    fields.put("blocks-pending", blocksPending);
    fields.put("connections", connections);
    fields.put("reason", reason == null ? "" : reason);
    StringBuilder text = new StringBuilder();
    fields.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    return text.toString();
  }

  /** @return the report parsed from {@link #toText} */
  public static GearUpReport parse(String text) {
    Map<String, String> f = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        f.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    long[] steps = new long[4];
    for (int s = 0; s < 4; s++) {
      steps[s] = Long.parseLong(f.getOrDefault("step" + (s + 1) + "-ms", "0"));
    }
    return new GearUpReport(f.get("state"), Integer.parseInt(f.getOrDefault("step", "0")),
        f.get("issuance"), f.get("transfer"), f.getOrDefault("returning", ""),
        Integer.parseInt(f.getOrDefault("entries", "0")),
        Integer.parseInt(f.getOrDefault("files", "0")),
        Integer.parseInt(f.getOrDefault("blocks", "0")),
        Long.parseLong(f.getOrDefault("metadata-bytes", "0")), steps,
        Integer.parseInt(f.getOrDefault("blocks-moved", "0")),
        Integer.parseInt(f.getOrDefault("blocks-pending", "0")),
        Long.parseLong(f.getOrDefault("connections", "-1")), f.getOrDefault("reason", ""));
  }
}
