/**
 * Mechanism: how Fat-Btree nodes reach each other. {@link InProcessTransport} calls nodes in one
 * JVM; {@link RpcTransport} and {@link IndexPeerServer} carry the same
 * {@link org.locus.ndcoupling.fatbtree.IndexPeer} protocol over Hadoop RPC
 * ({@link FatBtreeProtocol}). With copies, {@link PageMirrorProtocol} carries page writes to
 * the store another node keeps ({@link RemotePageStore}), {@link NodeSwitchProtocol} the steps
 * of a switch, and {@link IndexAdminProtocol} ({@link IndexAdminClient}) what the gear shifter
 * asks.
 */
package org.locus.ndcoupling.fatbtree.transport;
