package org.locus.ndcoupling.namenode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.GearBlockMap;
import org.apache.hadoop.hdfs.server.blockmanagement.GearPlacementRule;
import org.locus.ndcoupling.gear.CommandIssuance;
import org.locus.ndcoupling.gear.GearUpReport;
import org.locus.ndcoupling.gear.TransferMethod;
import org.locus.ndcoupling.gear.UpdateLog;
import org.locus.ndcoupling.gear.UpdateLogEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One gear-up's reflection of the low-gear writes onto the returning nodes, in the seed's four
 * steps (seed 004 §4.3), each timed on its own:
 * <ol>
 * <li><b>Metadata</b>: the update log's entries for the returning nodes (with one NameNode the
 * metadata is already here, so this step reads the log delta and names each entry's nodes; with
 * coupled nodes it is what each node ships to a returning one).
 * <li><b>Issue</b>: find the blocks each entry stands for and queue their transfers — file by
 * file as each is found (sequential), or all blocks first and then every source's queue
 * (batch).
 * <li><b>Transfer</b>: until every block is listed on its intended node. When no block has
 * arrived for the re-issue interval, the moves left are issued again, from their source if it
 * still holds the block, else from another live holder (a source may have died or had its
 * replica chosen as excess, a command or a connection may have been lost).
 * <li><b>Reflect</b>: until the stand-ins' now-extra replicas are chosen for deletion (the
 * NameNode does so when the intended node reports its copy, as {@link GearPlacementRule} or the
 * batch transfer's delete hint tells it; a block with no more live replicas than its factor
 * keeps the stand-in's as one of its own); then the entries are retired and the log compacted.
 * </ol>
 * Entries whose intended node dies during the run stay pending in the log for the next gear-up.
 */
final class GearUpRun {
  private static final Logger LOG = LoggerFactory.getLogger(GearUpRun.class);
  private static final long POLL_MS = 50;

  private final GearBlockMap blockMap;
  private final GearPlacementRule rule;
  private final UpdateLog log;
  private final Set<String> returning;
  private final CommandIssuance issuance;
  private final TransferMethod transfer;
  private final BlockMover mover;
  private final long timeoutMs;
  private final long reissueMs;
  private volatile GearUpReport progress;

  GearUpRun(GearBlockMap blockMap, GearPlacementRule rule, UpdateLog log, Set<String> returning,
      CommandIssuance issuance, TransferMethod transfer, BlockMover mover, long timeoutMs,
      long reissueMs) {
    this.blockMap = blockMap;
    this.rule = rule;
    this.log = log;
    this.returning = returning;
    this.issuance = issuance;
    this.transfer = transfer;
    this.mover = mover;
    this.timeoutMs = timeoutMs;
    this.reissueMs = reissueMs;
    this.progress = report("running", 1, 0, 0, 0, 0, new long[4], 0, 0, null);
  }

  /** @return the report so far (state running) or the final one */
  GearUpReport progress() {
    return progress;
  }

  private GearUpReport report(String state, int step, int entries, int files, int blocks,
      long bytes, long[] steps, int moved, int pending, String reason) {
    return new GearUpReport(state, step, issuance.name().toLowerCase(),
        transfer.name().toLowerCase(), String.join(",", returning), entries, files, blocks,
        bytes, steps.clone(), moved, pending, mover.connectionsOpened(), reason);
  }

  GearUpReport run() throws IOException {
    long[] steps = new long[4];
    long start = System.nanoTime();
    // Step 1: the log delta for the returning nodes.
    Map<Long, List<UpdateLogEntry>> byFile = new LinkedHashMap<>();
    long bytes = 0;
    Map<String, Set<String>> standInsOf = new HashMap<>();
    for (UpdateLogEntry entry : log.pending()) {
      if (!returning.contains(entry.intended())) {
        continue;
      }
      long fileKey = entry.inodeId() > 0 ? entry.inodeId() : -entry.sequence();
      byFile.computeIfAbsent(fileKey, k -> new ArrayList<>()).add(entry);
      bytes += 40 + entry.path().getBytes(StandardCharsets.UTF_8).length
          + entry.standIn().length() + entry.intended().length();
      standInsOf.computeIfAbsent(entry.intended(), k -> new HashSet<>()).add(entry.standIn());
    }
    int entries = byFile.values().stream().mapToInt(List::size).sum();
    rule.reflectingTo(standInsOf);
    steps[0] = millisSince(start);
    progress = report("running", 2, entries, byFile.size(), 0, bytes, steps, 0, 0, null);

    // Step 2: search and issue.
    long issueStart = System.nanoTime();
    List<GearBlockMap.Work> all = new ArrayList<>();
    List<UpdateLogEntry> nothingToMove = new ArrayList<>();
    for (List<UpdateLogEntry> fileEntries : byFile.values()) {
      List<GearBlockMap.Work> fileWork = resolve(fileEntries, nothingToMove);
      all.addAll(fileWork);
      if (issuance == CommandIssuance.SEQUENTIAL && !fileWork.isEmpty()) {
        mover.move(fileWork);
      }
    }
    if (issuance == CommandIssuance.BATCH && !all.isEmpty()) {
      mover.move(all);
    }
    log.retire(nothingToMove);
    steps[1] = millisSince(issueStart);
    progress = report("running", 3, entries, byFile.size(), all.size(), bytes, steps, 0,
        all.size(), null);

    // Step 3: until every block is on its intended node.
    long transferStart = System.nanoTime();
    long deadline = System.currentTimeMillis() + timeoutMs;
    List<GearBlockMap.Work> waiting = new ArrayList<>(all);
    long lastProgress = System.currentTimeMillis();
    int reflected = 0;
    String reason = null;
    while (!waiting.isEmpty()) {
      waiting.removeIf(w -> blockMap.holdsLocked(w.block(), w.target()));
      if (waiting.isEmpty()) {
        break;
      }
      long now = System.currentTimeMillis();
      if (all.size() - waiting.size() > reflected) {
        reflected = all.size() - waiting.size();
        lastProgress = now;
      }
      if (now > deadline) {
        reason = waiting.size() + " blocks not on their intended nodes after " + timeoutMs
            + " ms; their entries stay in the log";
        break;
      }
      waiting.removeIf(w -> {
        if (!w.target().isAlive()) {
          LOG.warn("Gear-up: intended node {} of {} is dead; its entry stays pending",
              w.target(), w.entry().path());
          return true;
        }
        return false;
      });
      if (now - lastProgress > reissueMs && !waiting.isEmpty()) {
        List<GearBlockMap.Work> again = new ArrayList<>();
        for (ListIterator<GearBlockMap.Work> it = waiting.listIterator(); it.hasNext(); ) {
          GearBlockMap.Work move = blockMap.again(it.next());
          if (move != null) {
            again.add(move);
            it.set(move);
          }
        }
        LOG.info("Gear-up: no block reflected for {} ms; issuing the {} moves left again",
            reissueMs, again.size());
        mover.move(again);
        lastProgress = now;
      }
      progress = report("running", 3, entries, byFile.size(), all.size(), bytes, steps,
          all.size() - waiting.size(), waiting.size(), null);
      sleep();
    }
    steps[2] = millisSince(transferStart);

    // Step 4: the stand-ins' copies chosen for deletion, entries retired.
    long reflectStart = System.nanoTime();
    Set<UpdateLogEntry> unfinished = new HashSet<>();
    for (GearBlockMap.Work w : all) {
      if (!blockMap.holdsLocked(w.block(), w.target())) {
        unfinished.add(w.entry());
      }
    }
    List<GearBlockMap.Work> extra = new ArrayList<>();
    for (GearBlockMap.Work w : all) {
      if (!unfinished.contains(w.entry())) {
        DatanodeDescriptor standIn = blockMap.datanode(w.entry().standIn());
        if (standIn != null) {
          extra.add(new GearBlockMap.Work(w.entry(), w.block(), standIn, w.target()));
        }
      }
    }
    while (!extra.isEmpty() && System.currentTimeMillis() < deadline) {
      extra.removeIf(w -> !blockMap.holdsExtra(w.block(), w.source()));
      if (!extra.isEmpty()) {
        sleep();
      }
    }
    if (!extra.isEmpty()) {
      LOG.warn("Gear-up: {} stand-in replicas are still extra at the deadline; the NameNode"
          + " removes them as excess later", extra.size());
    }
    Map<Long, UpdateLogEntry> done = new LinkedHashMap<>();
    for (List<UpdateLogEntry> fileEntries : byFile.values()) {
      for (UpdateLogEntry entry : fileEntries) {
        if (!unfinished.contains(entry)) {
          done.put(entry.sequence(), entry);
        }
      }
    }
    log.retire(done.values());
    log.compact();
    rule.reflectingTo(Map.of());
    steps[3] = millisSince(reflectStart);
    int pending = unfinished.size();
    if (pending == 0) {
      // Every block arrived, so every push has delivered; let each return its count.
      try {
        mover.awaitMovesReturned(deadline);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("gear-up interrupted", e);
      }
    }
    progress = report(pending == 0 ? "done" : "failed", 4, entries, byFile.size(), all.size(),
        bytes, steps, all.size() - (int) all.stream()
            .filter(w -> unfinished.contains(w.entry())).count(), pending, reason);
    return progress;
  }

  private List<GearBlockMap.Work> resolve(List<UpdateLogEntry> fileEntries,
      List<UpdateLogEntry> nothingToMove) {
    List<GearBlockMap.Work> work = new ArrayList<>();
    // A block may wait for two intended nodes (the partition rule logs each), so a move is a
    // block and its target.
    Set<String> seen = new HashSet<>();
    for (UpdateLogEntry entry : fileEntries) {
      DatanodeDescriptor standIn = blockMap.datanode(entry.standIn());
      DatanodeDescriptor intended = blockMap.datanode(entry.intended());
      if (intended == null || !intended.isAlive()) {
        continue;
      }
      List<GearBlockMap.Work> found = blockMap.resolve(entry, standIn, intended);
      boolean any = false;
      for (GearBlockMap.Work w : found) {
        if (seen.add(w.block().getBlockId() + "@" + w.target().getDatanodeUuid())) {
          work.add(w);
          any = true;
        }
      }
      if (!any && found.isEmpty()) {
        nothingToMove.add(entry);
      }
    }
    return work;
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static void sleep() throws IOException {
    try {
      Thread.sleep(POLL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("gear-up interrupted", e);
    }
  }
}
