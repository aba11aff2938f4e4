/**
 * The bench runner and the clusters every bench runs on.
 *
 * <p>A bench says what it needs as a {@link org.locus.bench.run.ClusterRecipe}; one
 * implementation per kind of cluster starts it: {@link org.locus.bench.run.EmbeddedCluster}
 * (the kit's mini cluster in this JVM) and {@link org.locus.bench.run.NetnsCluster} (stock
 * daemons in network namespaces, started and stopped by the bench). A cluster that is already
 * up ({@link org.locus.bench.run.ExistingCluster}, {@link
 * org.locus.bench.run.RunningNetnsCluster}) has no recipe: the bench submits to it and leaves
 * it running. A feature's own set-up on a started cluster extends {@link
 * org.locus.bench.run.ForwardingBenchCluster} and overrides only what it adds.
 */
package org.locus.bench.run;
