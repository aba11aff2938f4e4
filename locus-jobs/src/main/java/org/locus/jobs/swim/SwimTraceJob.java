package org.locus.jobs.swim;

/**
 * One row of a SWIM trace (columns in {@code data/swim/README.md}): a job of the original
 * cluster with its submission time and its three byte counts.
 *
 * @param name job name, e.g. {@code job17}
 * @param submitSeconds submission time, seconds from the start of the trace
 * @param gapSeconds seconds since the previous job's submission
 * @param inputBytes map input bytes
 * @param shuffleBytes shuffle bytes
 * @param outputBytes reduce output bytes
 */
public record SwimTraceJob(String name, long submitSeconds, long gapSeconds, long inputBytes,
    long shuffleBytes, long outputBytes) {
}
