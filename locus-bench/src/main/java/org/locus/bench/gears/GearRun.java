package org.locus.bench.gears;

import java.util.Map;

/**
 * One measured gear cycle: the low-gear writes reflected onto the returning nodes.
 *
 * @param config the configuration's name
 * @param run the run's number, from 1
 * @param files files written in low gear
 * @param blocks blocks gear-up moved
 * @param stepMillis the NameNode's four steps (metadata, issue, transfer, reflect)
 * @param reflectionMillis from the gear-up's start until every block is on its intended node
 *     and the NameNode has no block below its replication (the measure of the bench)
 * @param restartMillis from switching the returning nodes on (their DataNodes; whole nodes on
 *     coupled nodes with copies) until the NameNodes list them live, less what a returning
 *     NameNode applied after first answering (counted in step 1); not in the reflection time
 * @param writeMillis writing the files in low gear
 * @param dataConnections block-transfer connections the returning DataNodes accepted during
 *     the gear-up, as their own metrics count them ({@link DataNodeConnections})
 * @param tcpAccepted every TCP connection the returning nodes accepted meanwhile, as their
 *     network namespaces' kernels counted them ({@code PassiveOpens}): a cross-check
 * @param sentBytes bytes each node put on its link during the gear-up
 * @param fsckHealthy whether fsck reported the namespace HEALTHY afterwards
 * @param indexPages Fat-Btree pages the index's step 1 shipped to the returning index nodes
 *     (their own pages and the copies they keep), or -1 on a cluster without index copies
 * @param indexBytes their bytes (page-file encoding), or -1 likewise
 */
public record GearRun(String config, int run, int files, int blocks, long[] stepMillis,
    long reflectionMillis, long restartMillis, long writeMillis, long dataConnections, long tcpAccepted,
    Map<String, Long> sentBytes, boolean fsckHealthy, int indexPages, long indexBytes) {

  /** @return whether the run's cluster switched index nodes with whole nodes */
  public boolean indexCopies() {
    return indexPages >= 0;
  }

  /** @return connections per moved block */
  public double connectionsPerBlock() {
    return blocks == 0 ? 0 : (double) dataConnections / blocks;
  }
}
