package org.locus.kat.verify;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.kat.hint.KeyHint;
import org.locus.kat.placement.KeyOwnership;
import org.locus.kat.placement.OwnerPaths;
import org.locus.kat.placement.PlacementMap;

/**
 * Reads a KAT dataset back — every record and every block location — and checks that the
 * records of each key live on one node: the node holding a replica of every block that holds
 * one of the key's records. Also reports balance per host and the largest keys (skew).
 */
public final class PlacementVerifier {
  private final FileSystem fs;
  private final KeyHint hint;

  public PlacementVerifier(FileSystem fs, KeyHint hint) {
    this.fs = fs;
    this.hint = hint;
  }

  public VerifyReport verify(Path dataset, PlacementMap map, int topN) throws IOException {
    KeyOwnership ownership = map.ownership();
    Map<String, KeyState> keys = new HashMap<>();
    Map<String, Long> bytesPerHost = new TreeMap<>();
    Map<String, Long> recordsPerHost = new TreeMap<>();
    long records = 0;
    long keyless = 0;
    long misplaced = 0;
    long blocksOffOwner = 0;
    for (FileStatus ownerDir : fs.listStatus(dataset)) {
      Optional<String> owner = OwnerPaths.ownerOf(ownerDir.getPath().getName());
      if (!ownerDir.isDirectory() || owner.isEmpty()) {
        continue;
      }
      for (FileStatus file : fs.listStatus(ownerDir.getPath())) {
        Optional<Integer> bucket = OwnerPaths.bucketOf(file.getPath());
        if (bucket.isEmpty()) {
          continue;
        }
        if (!ownership.ownerOfBucket(bucket.get()).equals(owner.get())) {
          misplaced++;
        }
        BlockLocation[] blocks = fs.getFileBlockLocations(file, 0, file.getLen());
        for (BlockLocation block : blocks) {
          if (!Arrays.asList(block.getHosts()).contains(owner.get())) {
            blocksOffOwner++;
          }
        }
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
            fs.open(file.getPath()), StandardCharsets.UTF_8), 256 * 1024)) {
          long offset = 0;
          int blockIndex = 0;
          String record;
          while ((record = in.readLine()) != null) {
            long length = record.getBytes(StandardCharsets.UTF_8).length + 1;
            while (blockIndex < blocks.length - 1
                && offset >= blocks[blockIndex].getOffset() + blocks[blockIndex].getLength()) {
              blockIndex++;
            }
            String key = hint.keyOfRecord(record);
            if (key == null) {
              keyless++;
            } else {
              records++;
              keys.computeIfAbsent(key, k -> new KeyState())
                  .add(blocks.length == 0 ? Set.of() : hostsOf(blocks[blockIndex]), length);
            }
            bytesPerHost.merge(owner.get(), length, Long::sum);
            recordsPerHost.merge(owner.get(), 1L, Long::sum);
            offset += length;
          }
        }
      }
    }
    long split = keys.values().stream().filter(KeyState::isSplit).count();
    List<VerifyReport.KeySize> top = new ArrayList<>();
    keys.entrySet().stream()
        .sorted(Comparator.comparingLong((Map.Entry<String, KeyState> e) -> e.getValue().bytes)
            .reversed().thenComparing(Map.Entry::getKey))
        .limit(topN)
        .forEach(e -> top.add(new VerifyReport.KeySize(e.getKey(), e.getValue().bytes,
            e.getValue().records)));
    return new VerifyReport(keys.size(), records, keyless, split, misplaced, blocksOffOwner,
        bytesPerHost, recordsPerHost, top);
  }

  private static Set<String> hostsOf(BlockLocation block) throws IOException {
    return new HashSet<>(Arrays.asList(block.getHosts()));
  }

  /** Hosts that hold every block holding one of the key's records so far. */
  private static final class KeyState {
    private Set<String> commonHosts;
    private long bytes;
    private long records;

    void add(Set<String> blockHosts, long length) {
      if (commonHosts == null) {
        commonHosts = new HashSet<>(blockHosts);
      } else {
        commonHosts.retainAll(blockHosts);
      }
      bytes += length;
      records++;
    }

    boolean isSplit() {
      return commonHosts.isEmpty();
    }
  }
}
