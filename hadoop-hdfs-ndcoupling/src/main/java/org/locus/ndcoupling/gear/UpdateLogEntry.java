package org.locus.ndcoupling.gear;

/**
 * One record of the update log (seed 004 §4.3: "information about the data, the temporary node,
 * and the intended node"): a replica of a block of {@code path} that placement meant for
 * {@code intended} went to {@code standIn} because {@code intended} was off.
 *
 * <p>The file is named by its inode id, which a rename keeps, and by the path it had when the
 * block was placed (for people reading the log). Placement decides before the NameNode assigns
 * the block its id, so the block is found again at gear-up: the blocks of the file that have a
 * replica on the stand-in and none on the intended node.
 *
 * @param sequence the entry's number in its log, increasing from 1
 * @param inodeId the file's inode id
 * @param path the file's path when the block was placed
 * @param standIn the host that took the replica
 * @param intended the host placement meant it for
 * @param placedAtMillis when the block was placed (epoch milliseconds)
 */
public record UpdateLogEntry(long sequence, long inodeId, String path, String standIn,
    String intended, long placedAtMillis) {
}
