package org.locus.lowpower.amdahl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Amdahl numbers, the instruction estimate and its label, /proc parsing. Under a second. */
class AmdahlNumberTest {
  @Test
  void amdahlNumbersAreIoBitsPerInstruction() {
    // 100 MB of disk and 50 MB of network in 2 s with 1.6e9 instructions
    TaskIo io = new TaskIo("HDFS write", 2.0, 1.0, 100_000_000L, 50_000_000L, 1_600_000_000L);
    AmdahlNumber n = new AmdahlNumber(io, io.instructions());
    assertEquals(0.5, n.disk(), 1e-9);
    assertEquals(0.75, n.diskAndNetwork(), 1e-9);
    assertEquals(800, n.millionInstructionsPerSecond(), 1e-9);
  }

  @Test
  void estimateIsCpuSecondsTimesClockTimesAssumedIpc() {
    InstructionSource source = InstructionSource.estimate(2.0e9, "test");
    TaskIo io = new TaskIo("mapper", 10, 3.0, 0, 0, -1);
    assertEquals(3.0 * 2.0e9 * InstructionSource.ASSUMED_IPC, source.instructions(io), 1);
  }

  @Test
  void estimatedMethodSaysItIsNotAMeasurement() {
    InstructionSource source = InstructionSource.estimate(1.6e9,
        "perf stat -e instructions: not supported");
    assertFalse(source.counted());
    assertTrue(source.method().contains("ESTIMATED"), source.method());
    assertTrue(source.method().contains("not a measurement"), source.method());
    assertTrue(source.method().contains("1.60 GHz"), source.method());
  }

  @Test
  void perfNotSupportedMeansNoCounters() {
    assertEquals("perf stat -e instructions: not supported",
        InstructionSource.perfOutputVerdict(0, "<not supported>,,instructions,0,100.00,,\n"));
  }

  @Test
  void perfCountingInstructionsMeansCounters() {
    assertNull(InstructionSource.perfOutputVerdict(0, "1234567,,instructions:u,811,100.00,,\n"));
  }

  @Test
  void clockComesFromCpuinfoWithoutCpufreq(@TempDir Path dir) throws IOException {
    Path cpuinfo = Files.writeString(dir.resolve("cpuinfo"),
        "processor\t: 0\ncpu MHz\t\t: 2394.454\n");
    assertEquals(2394.454e6, InstructionSource.nominalHz(dir.resolve("none"), cpuinfo), 1);
  }

  @Test
  void processCpuIsUtimePlusStimeInTicks() {
    String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0";
    assertEquals(3.0, ProcessCpu.parseStat(stat), 1e-9);
  }

  @Test
  void ownProcessCpuIsReadable() throws IOException {
    assertTrue(ProcessCpu.seconds(ProcessHandle.current().pid()) > 0);
  }
}
