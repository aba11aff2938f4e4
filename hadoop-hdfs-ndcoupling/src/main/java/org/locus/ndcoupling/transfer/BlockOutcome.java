package org.locus.ndcoupling.transfer;

/**
 * What became of one block of a push.
 *
 * @param blockId the block's ID
 * @param status whether the target now holds the block
 * @param bytes data bytes sent for this block (0 unless {@link Status#TRANSFERRED})
 * @param reason why the block failed, naming the block and the node; "" otherwise
 */
public record BlockOutcome(long blockId, Status status, long bytes, String reason) {

  /** The fate of a block. */
  public enum Status {
    /** Sent, verified and finalized on the target, and reported to the NameNode. */
    TRANSFERRED,
    /** The target already held a finalized replica with this generation stamp; nothing sent. */
    ALREADY_PRESENT,
    /**
     * Not confirmed on the target. The reason says why: the source's replica, the target's
     * refusal or checksum check, or the connection. When the connection broke, the target may
     * have finalized and reported the block in flight just before (and the NameNode may then
     * delete the delHint's replica); a repeated push finds it {@link #ALREADY_PRESENT}.
     */
    FAILED;

    static Status fromWire(byte code) {
      return switch (code) {
        case 0 -> TRANSFERRED;
        case 1 -> ALREADY_PRESENT;
        case 2 -> FAILED;
        default -> throw new IllegalArgumentException("unknown block outcome code " + code);
      };
    }

    byte toWire() {
      return (byte) ordinal();
    }
  }

  /** @return whether the target holds the block now */
  public boolean onTarget() {
    return status != Status.FAILED;
  }

  static BlockOutcome transferred(long blockId, long bytes) {
    return new BlockOutcome(blockId, Status.TRANSFERRED, bytes, "");
  }

  static BlockOutcome alreadyPresent(long blockId) {
    return new BlockOutcome(blockId, Status.ALREADY_PRESENT, 0, "");
  }

  static BlockOutcome failed(long blockId, String reason) {
    return new BlockOutcome(blockId, Status.FAILED, 0, reason);
  }
}
