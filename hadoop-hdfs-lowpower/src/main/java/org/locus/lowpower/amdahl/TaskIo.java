package org.locus.lowpower.amdahl;

/**
 * What one kind of task did while it was measured: its CPU time and the sequential I/O it
 * moved. Seed 003 §4 counts disk I/O and, separately, disk plus network I/O.
 *
 * @param task task type as printed (HDFS read, HDFS write, mapper, reducer)
 * @param wallSeconds elapsed time of the measured work
 * @param cpuSeconds CPU time of the processes doing it (user + system)
 * @param diskBytes bytes read from or written to disks
 * @param networkBytes bytes sent over sockets (HDFS streams, shuffle)
 * @param instructions retired instructions if counted by hardware counters, else -1
 */
public record TaskIo(String task, double wallSeconds, double cpuSeconds, long diskBytes,
    long networkBytes, long instructions) {
}
