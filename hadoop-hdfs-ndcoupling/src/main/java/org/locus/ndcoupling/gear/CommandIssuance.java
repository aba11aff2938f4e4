package org.locus.ndcoupling.gear;

import java.util.Locale;

/** Seed 004 §4.3 step 2: how gear-up finds the blocks to move and queues their transfers. */
public enum CommandIssuance {
  /** Search a file's blocks and issue their transfers, file after file. */
  SEQUENTIAL,
  /** Find every block and its destination first, then fill each source's queue. */
  BATCH;

  /** @throws IllegalArgumentException naming the allowed words */
  public static CommandIssuance parse(String word) {
    try {
      return valueOf(word.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("command issuance '" + word
          + "' is not one of sequential, batch");
    }
  }
}
