package org.locus.jobs.swim;

/**
 * One synthetic job of a replay or a crafted suite.
 *
 * @param name job name, e.g. {@code job17} or {@code shuffle-heavy-4.12}
 * @param group the group it belongs to, e.g. {@code shuffle-heavy-4}; the trace name for a
 *     trace replay
 * @param submitSeconds submission time from the suite's start, before time compression
 * @param targets the bytes it moves
 */
public record SuiteJob(String name, String group, double submitSeconds, ByteTargets targets) {
}
