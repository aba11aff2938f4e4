package org.locus.ndcoupling.gear;

import java.util.Locale;

/** Seed 004 §4.3 step 3: how the blocks travel from a stand-in to their intended node. */
public enum TransferMethod {
  /**
   * HDFS's own DataNode-to-DataNode transfer, commands handed out by the NameNode at the
   * source's heartbeats: a new connection per block.
   */
  SEQUENTIAL,
  /**
   * Every block a source has for a target over one connection (the batch transfer service in
   * each DataNode). Needs batch issuance: the source must know all its blocks first.
   */
  BATCH;

  /** @throws IllegalArgumentException naming the allowed words */
  public static TransferMethod parse(String word) {
    try {
      return valueOf(word.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("block transfer '" + word
          + "' is not one of sequential, batch");
    }
  }

  /** @throws IllegalArgumentException when this transfer cannot follow that issuance */
  public void checkWith(CommandIssuance issuance) {
    if (this == BATCH && issuance == CommandIssuance.SEQUENTIAL) {
      throw new IllegalArgumentException("batch transfer needs batch issuance (seed 004 §4.3"
          + " step 3: a source sends all its blocks over one connection once it knows them"
          + " all); use --issue batch");
    }
  }
}
