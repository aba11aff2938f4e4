/**
 * One Fat-Btree node as a running service: its page directory opened (or formatted), its
 * {@link org.locus.ndcoupling.fatbtree.IndexPeer} served over Hadoop RPC, its counters
 * published through metrics2. Hosted by the NameNode plug-in or run on its own.
 */
package org.locus.ndcoupling.fatbtree.service;
