package org.locus.bench.suite;

import java.util.List;

/**
 * A named list of jobs run in order, each under every feature set.
 *
 * @param name e.g. {@code puma-small}
 * @param jobs in run order
 */
public record BenchSuite(String name, List<BenchJob> jobs) {
}
