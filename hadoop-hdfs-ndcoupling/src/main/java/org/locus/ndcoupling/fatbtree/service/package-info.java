/**
 * One Fat-Btree node as a running service: its page directory opened (or formatted), its
 * {@link org.locus.ndcoupling.fatbtree.IndexPeer} served over Hadoop RPC, its counters
 * published through metrics2. Hosted by the NameNode plug-in or run on its own. With copies
 * ({@link org.locus.ndcoupling.fatbtree.service.CopiedIndexNode}) a node also keeps its ring
 * predecessor's copy, and {@link org.locus.ndcoupling.fatbtree.service.NodeSwitchCoordinator}
 * switches whole nodes off and back across the nodes.
 */
package org.locus.ndcoupling.fatbtree.service;
