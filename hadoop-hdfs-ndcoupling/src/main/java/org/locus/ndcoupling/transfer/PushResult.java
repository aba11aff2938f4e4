package org.locus.ndcoupling.transfer;

import java.util.List;

/**
 * The answer to a push: every block's outcome, in the order the push named the blocks, and
 * what the source spent on it.
 *
 * @param outcomes one per block pushed, in request order
 * @param connectionsOpened connections the source opened to the target for this push
 * @param bytesSent data bytes the source sent (blocks that failed midway included)
 */
public record PushResult(List<BlockOutcome> outcomes, int connectionsOpened, long bytesSent) {
  public PushResult {
    outcomes = List.copyOf(outcomes);
  }

  /** @return how many blocks were sent and finalized on the target */
  public int transferred() {
    return count(BlockOutcome.Status.TRANSFERRED);
  }

  /** @return how many blocks the target already held */
  public int alreadyPresent() {
    return count(BlockOutcome.Status.ALREADY_PRESENT);
  }

  /** @return how many blocks did not reach the target */
  public int failed() {
    return count(BlockOutcome.Status.FAILED);
  }

  /** @return the outcomes of the blocks that did not reach the target */
  public List<BlockOutcome> failures() {
    return outcomes.stream().filter(o -> !o.onTarget()).toList();
  }

  /** @return the outcome of block {@code blockId} */
  public BlockOutcome outcomeOf(long blockId) {
    return outcomes.stream().filter(o -> o.blockId() == blockId).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("blk_" + blockId
            + " was not part of this push"));
  }

  private int count(BlockOutcome.Status status) {
    return (int) outcomes.stream().filter(o -> o.status() == status).count();
  }
}
