package org.locus.ndcoupling.fatbtree;

/**
 * A B-link side pointer to the right neighbour of a page, with the nodes that held the
 * neighbour's copies when the link was written. For leaves the node is exact (a leaf migration
 * relinks its left neighbour); for index pages it is where the reader fetches the neighbour from
 * when it has no local copy, and a reader that finds no copy there restarts from the root.
 */
public record SideLink(long pageId, NodeSet nodes) {
}
