package org.locus.bench.external;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.locus.bench.BenchException;

/**
 * A benchmark implemented outside Java (the C tools' bench drivers), run from the Locus home
 * with the arguments given after its name. Its output and exit code pass through unchanged.
 */
public final class ExternalBench {
  private final List<String> program;

  /**
   * @param program the program and its leading arguments, relative to the Locus home
   */
  public ExternalBench(List<String> program) {
    this.program = List.copyOf(program);
  }

  /**
   * Runs the program in {@code home} with {@code args} after its own, its input and output
   * this process's.
   *
   * @return its exit code
   */
  public int run(File home, List<String> args) throws Exception {
    File executable = new File(home, program.get(0));
    if (!executable.canExecute()) {
      throw new BenchException(executable + " is missing or not executable; run"
          + " scripts/setup to build it");
    }
    List<String> command = new ArrayList<>();
    command.add(executable.getPath());
    command.addAll(program.subList(1, program.size()));
    command.addAll(args);
    Process process = new ProcessBuilder(command).directory(home).inheritIO().start();
    return process.waitFor();
  }
}
