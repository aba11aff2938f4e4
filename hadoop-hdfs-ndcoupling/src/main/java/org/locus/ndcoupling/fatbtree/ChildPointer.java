package org.locus.ndcoupling.fatbtree;

/**
 * One entry of an index page: the child covering keys from {@code lowKey} up to the next entry's
 * low key, and the nodes holding the child's copies. Keeping S_child in every entry is this
 * implementation's form of the Fat-Btree's "pointer per copy of the child" (seed 004 §4.2.2,
 * reference [6]): a reader on a node that holds a copy descends locally, any other reader knows
 * where to fetch it, and for a leaf the set names the one node a lookup is forwarded to.
 *
 * @param lowKey  the child's low key; null only in the first entry of a leftmost page
 * @param pageId  the child's page id
 * @param nodes   S_child
 */
public record ChildPointer(PathKey lowKey, long pageId, NodeSet nodes) {
}
