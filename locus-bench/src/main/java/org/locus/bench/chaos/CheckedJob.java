package org.locus.bench.chaos;

/**
 * One job of a chaos run, as it ended.
 *
 * @param name the job's name in the report
 * @param kind {@code swim} (a replayed trace job) or {@code wordcount} (a job whose output is
 *     checked against a known answer)
 * @param startMillis submission, from the run's start
 * @param endMillis completion, from the run's start
 * @param succeeded whether the MapReduce job succeeded
 * @param checked whether its output could be checked ({@code wordcount} only)
 * @param correct whether the checked output matched the answer (false when not checked)
 * @param reason why it failed or what was wrong; for a job that succeeded, what happened on
 *     the way (a client that lost the job's status), else empty
 */
public record CheckedJob(String name, String kind, long startMillis, long endMillis,
    boolean succeeded, boolean checked, boolean correct, String reason) {
}
