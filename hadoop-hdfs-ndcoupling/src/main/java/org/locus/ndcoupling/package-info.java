/**
 * NDCouplingHDFS (seed 004): power-proportional gears on HDFS and coupled metadata. See
 * {@code docs/ndcoupling.md}.
 */
package org.locus.ndcoupling;
