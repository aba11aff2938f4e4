package org.locus.lowpower.amdahl;

/**
 * The Amdahl numbers of one task type (seed 003 §4, Table 4): bits of sequential I/O per second
 * per instruction per second. Over one measurement the seconds cancel, so AD = disk bits /
 * instructions and ADN = (disk + network) bits / instructions. A balanced system has 1.
 *
 * @param io what the task did
 * @param instructions its instructions (counted or estimated, see {@link InstructionSource})
 */
public record AmdahlNumber(TaskIo io, double instructions) {

  /** @return million instructions per second of wall time (Table 4's InstrRate) */
  public double millionInstructionsPerSecond() {
    return instructions / io.wallSeconds() / 1e6;
  }

  /** @return AD: disk I/O bits per instruction */
  public double disk() {
    return io.diskBytes() * 8.0 / instructions;
  }

  /** @return ADN: disk and network I/O bits per instruction */
  public double diskAndNetwork() {
    return (io.diskBytes() + io.networkBytes()) * 8.0 / instructions;
  }
}
