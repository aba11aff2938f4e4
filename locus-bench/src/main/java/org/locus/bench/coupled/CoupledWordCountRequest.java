package org.locus.bench.coupled;

import java.io.File;
import java.util.Map;

/**
 * What {@code locus bench wordcount} runs.
 *
 * @param nodes netns worker nodes of each cluster
 * @param files one-block input files (the seed: 1 024)
 * @param fileBytes bytes per file (one block each)
 * @param runs WordCount runs per cluster over the same input
 * @param writers client threads writing the input
 * @param nodeMemoryBytes each node's memory
 * @param containerMemoryMb what each NodeManager offers to containers, equal on both clusters
 * @param featureKeys the ndcoupling feature's key set (both clusters)
 * @param out report directory
 * @param home the Locus checkout the dist bundle is written from
 */
public record CoupledWordCountRequest(int nodes, int files, int fileBytes, int runs,
    int writers, long nodeMemoryBytes, int containerMemoryMb, Map<String, String> featureKeys,
    File out, File home) {
}
