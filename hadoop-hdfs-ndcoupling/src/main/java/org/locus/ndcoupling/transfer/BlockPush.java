package org.locus.ndcoupling.transfer;

import java.util.Objects;

/**
 * One block a coordinator asks a source DataNode to send, as the NameNode knows it.
 *
 * @param blockId the block's ID
 * @param generationStamp the generation stamp the source's replica must have
 * @param numBytes the block's length; the source's finalized replica must be exactly this long
 * @param delHint UUID of the DataNode whose replica the NameNode should delete once the target
 *     reports the block (the stand-in of a low gear), or "" for none
 */
public record BlockPush(long blockId, long generationStamp, long numBytes, String delHint) {
  public BlockPush {
    Objects.requireNonNull(delHint, "delHint (use \"\" for none)");
    if (numBytes < 0) {
      throw new IllegalArgumentException("blk_" + blockId + ": negative length " + numBytes);
    }
  }

  /** @return the block's name as HDFS logs it, {@code blk_<id>_<generation stamp>} */
  public String blockName() {
    return "blk_" + blockId + "_" + generationStamp;
  }
}
