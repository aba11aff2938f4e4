/**
 * Mechanism: how Fat-Btree nodes reach each other. In-process for now; a Hadoop RPC transport
 * implements the same {@link org.locus.ndcoupling.fatbtree.PeerTransport}.
 */
package org.locus.ndcoupling.fatbtree.transport;
