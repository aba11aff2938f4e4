package org.locus.ndcoupling.fatbtree;

/**
 * Where a node's descents start: the root page's id and level. Every node holds the root
 * (S_root is every node), and every node keeps this pointer; a root split replaces it on every
 * node while it holds the latches of every copy of the old root.
 */
public record RootRef(long pageId, int level) {
}
