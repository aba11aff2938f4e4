package org.locus.cli.bench;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.locus.cli.Command;
import org.locus.cli.Console;
import org.locus.cli.LocusException;

/**
 * A benchmark implemented outside Java (the C tools' bench drivers), run from the Locus home
 * with the arguments given after its name. Its output and exit code pass through unchanged.
 */
final class ExternalBenchCommand implements Command {
  private final String name;
  private final String summary;
  private final List<String> program;

  /**
   * @param program the program and its leading arguments, relative to the Locus home
   */
  ExternalBenchCommand(String name, String summary, List<String> program) {
    this.name = name;
    this.summary = summary;
    this.program = List.copyOf(program);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String summary() {
    return summary;
  }

  @Override
  public int run(String[] args, Console console) throws Exception {
    String home = System.getProperty("locus.home");
    if (home == null) {
      throw new LocusException("locus.home is not set; run benchmarks through bin/locus");
    }
    File executable = new File(home, program.get(0));
    if (!executable.canExecute()) {
      throw new LocusException(executable + " is missing or not executable; run"
          + " scripts/setup to build it");
    }
    List<String> command = new ArrayList<>();
    command.add(executable.getPath());
    command.addAll(program.subList(1, program.size()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).directory(new File(home)).inheritIO().start();
    return process.waitFor();
  }
}
