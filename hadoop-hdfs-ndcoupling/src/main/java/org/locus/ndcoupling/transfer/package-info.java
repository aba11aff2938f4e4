/**
 * Batch block transfer, the DataNode-side mechanism of NDCouplingHDFS's gear-up (seed 004 §4.3
 * step 3, "batch transfer method"): many blocks from one source DataNode to one target DataNode
 * over one connection, where stock HDFS opens a connection per block.
 *
 * <p>Switched on per DataNode with {@code dfs.datanode.plugins =
 * org.locus.ndcoupling.transfer.BatchTransferService}; the keys are the {@code batch-transfer}
 * group of {@link org.locus.ndcoupling.NdCouplingConfigKeys}. A coordinator (the gear-up code,
 * a benchmark, a test) calls {@link org.locus.ndcoupling.transfer.BatchTransferClient#push} with
 * the blocks as the NameNode knows them and, for each, the DataNode whose replica should go
 * (delHint); it gets every block's {@link org.locus.ndcoupling.transfer.BlockOutcome}. The
 * target reports what it stored through its ordinary incremental block report, so the NameNode
 * adds the target to each block's locations and removes the delHint's excess replica itself.
 *
 * <p>Mechanism only: which blocks go where is the gear-up's decision. Classes: the plug-in's
 * lifecycle ({@link org.locus.ndcoupling.transfer.BatchTransferService}), the wire format
 * ({@link org.locus.ndcoupling.transfer.BatchTransferProtocol}), the source's side
 * ({@code PushSession}, {@code BatchSender}, {@code SourceReplica}), the target's side
 * ({@code BatchReceiver}, {@code ChunkSums}), the counters
 * ({@link org.locus.ndcoupling.transfer.BatchTransferMetrics}); the package-private DataNode
 * calls are in {@code org.apache.hadoop.hdfs.server.datanode.NdCouplingDataNodeAccess}.
 */
package org.locus.ndcoupling.transfer;
