package org.locus.ndcoupling.fatbtree;

/** One key of the index and the owner (node or partition) it maps to. */
public record IndexEntry(PathKey key, int owner) {
}
