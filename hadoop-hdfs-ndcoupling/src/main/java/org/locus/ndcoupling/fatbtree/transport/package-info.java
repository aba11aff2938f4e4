/**
 * Mechanism: how Fat-Btree nodes reach each other. {@link InProcessTransport} calls nodes in one
 * JVM; {@link RpcTransport} and {@link IndexPeerServer} carry the same
 * {@link org.locus.ndcoupling.fatbtree.IndexPeer} protocol over Hadoop RPC
 * ({@link FatBtreeProtocol}).
 */
package org.locus.ndcoupling.fatbtree.transport;
