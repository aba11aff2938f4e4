/**
 * Mechanism: how one node keeps its Fat-Btree pages. Page files with checksums, written
 * atomically (temporary file, fsync, rename), and the node file with the root pointer.
 */
package org.locus.ndcoupling.fatbtree.store;
