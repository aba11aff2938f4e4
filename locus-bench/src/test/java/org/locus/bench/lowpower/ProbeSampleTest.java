package org.locus.bench.lowpower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** The probe's output line and the DataNode CPU it reads from {@code /proc/PID/stat}. */
class ProbeSampleTest {
  @Test
  void theProbeLineParsesAmongLogLines() {
    String output = "log4j:WARN No appenders could be found\n"
        + "probe write_ns=2000000000 read_ns=500000000 client_cpu_write_ns=300000000"
        + " client_cpu_read_ns=100000000 datanode_cpu_write_ns=700000000"
        + " datanode_cpu_read_ns=50000000 stored_bytes=1000 logical_bytes=64000000\n";
    ProbeSample s = ProbeSample.parse("stock", 3, 2, output).orElseThrow();
    assertEquals(3, s.replication());
    assertEquals(2, s.round());
    assertEquals(32.0, s.writeMBps(), 1e-9);
    assertEquals(128.0, s.readMBps(), 1e-9);
    assertEquals(1.0 * (1L << 30) / 64e6, s.writeCpuSecondsPerGiB(), 1e-9);
    assertEquals(ProbeSample.TSV_HEADER.split("\t").length, s.tsv().split("\t").length);
    assertFalse(ProbeSample.parse("stock", 1, 1, "Exception in thread main\n").isPresent());
  }

  @Test
  void cpuTicksAreUserPlusSystemTimeEvenWhenTheCommandNameHasSpacesAndParentheses() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime ...
    String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 56 0 0 20 0";
    assertEquals(1290, HdfsWriteProbe.cpuTicks(stat));
  }
}
