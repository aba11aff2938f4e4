package org.locus.cli.bench;

import java.io.File;
import java.util.List;

import org.locus.bench.BenchException;
import org.locus.bench.external.ExternalBench;
import org.locus.cli.command.Command;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;

/**
 * {@code locus bench zone|morphstore}: a benchmark implemented outside Java, run by
 * {@link ExternalBench} from the Locus home with the arguments given after its name.
 */
final class ExternalBenchCommand implements Command {
  private final String name;
  private final String summary;
  private final ExternalBench bench;

  /**
   * @param program the program and its leading arguments, relative to the Locus home
   */
  ExternalBenchCommand(String name, String summary, List<String> program) {
    this.name = name;
    this.summary = summary;
    this.bench = new ExternalBench(program);
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
    try {
      return bench.run(new File(home), List.of(args));
    } catch (BenchException e) {
      throw new LocusException(e.getMessage(), e);
    }
  }
}
