/**
 * The Fat-Btree (seed 004 §4.2.2): a B-tree over all nodes from paths to their owners, upper
 * pages replicated on every node below them, each leaf on one node. This package holds the
 * structure and its protocol ({@link org.locus.ndcoupling.fatbtree.FatBtreeNode}, the page
 * values, {@link org.locus.ndcoupling.fatbtree.IndexPeer}); {@code store} keeps a node's pages,
 * {@code transport} carries requests between nodes (in process or over Hadoop RPC),
 * {@code service} runs one node with its RPC server and metrics (and, with copies, switches
 * whole nodes). {@link org.locus.ndcoupling.fatbtree.NodeSwitchRules} is the policy of those
 * switches, in one JVM ({@link org.locus.ndcoupling.fatbtree.NodeCopies}) and over RPC. See
 * docs/ndcoupling.md, "Fat-Btree".
 */
package org.locus.ndcoupling.fatbtree;
