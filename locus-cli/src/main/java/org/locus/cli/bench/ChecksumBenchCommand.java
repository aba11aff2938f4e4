package org.locus.cli.bench;

import java.io.File;
import java.util.HashMap;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.locus.bench.BenchException;
import org.locus.bench.checksum.ChecksumBench;
import org.locus.bench.checksum.ChecksumBenchRequest;
import org.locus.cli.command.Console;
import org.locus.cli.command.HadoopLogFile;
import org.locus.cli.command.LocusException;
import org.locus.cli.command.OptionsCommand;
import org.locus.cli.command.UsageException;

/**
 * {@code locus bench checksum}: options and usage only; the values are parsed into a
 * {@link ChecksumBenchRequest} and the sweep is {@link ChecksumBench} in {@code locus-bench}.
 */
public final class ChecksumBenchCommand extends OptionsCommand {
  public ChecksumBenchCommand() {
    super("locus bench checksum");
  }

  @Override
  public String name() {
    return "checksum";
  }

  @Override
  public String summary() {
    return "dfs.bytes-per-checksum x client write size (and BufferedOutputStream) on an"
        + " embedded cluster: write and read MB/s and CPU against stock";
  }

  @Override
  protected Options options() {
    return new Options()
        .addOption(list("bytes-per-checksum", "checksum chunks to sweep, powers of two"
            + " 64..1048576; 512 (stock) is always measured (default "
            + ChecksumBenchRequest.DEFAULT_BYTES_PER_CHECKSUM + ")"))
        .addOption(list("write-sizes", "bytes per client write (and read) call, 1..1048576"
            + " (default " + ChecksumBenchRequest.DEFAULT_WRITE_SIZES + ")"))
        .addOption(Option.builder().longOpt("buffer").hasArg().argName("BYTES")
            .desc("also measure each smaller write size through a BufferedOutputStream of this"
                + " size; 0 for none (default " + ChecksumBenchRequest.DEFAULT_BUFFER_BYTES
                + ")").build())
        .addOption(list("replication", "replication factors, 1..5; the cluster gets as many"
            + " DataNodes as the largest (default " + ChecksumBenchRequest.DEFAULT_REPLICATIONS
            + ")"))
        .addOption(Option.builder().longOpt("mib").hasArg().argName("N")
            .desc("size of each file in MiB, 1..1024 (default " + ChecksumBenchRequest.DEFAULT_MIB
                + ")").build())
        .addOption(Option.builder().longOpt("rounds").hasArg().argName("N")
            .desc("rounds, each measuring every configuration once, 1..50 (default "
                + ChecksumBenchRequest.DEFAULT_ROUNDS + ")").build())
        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("report directory; Hadoop's log goes to DIR/hadoop.log (default"
                + " bench-out/checksum)").build());
  }

  private static Option list(String name, String description) {
    return Option.builder().longOpt(name).hasArg().argName("N,N,...").desc(description).build();
  }

  @Override
  protected String usageArguments() {
    return "[--bytes-per-checksum N,N,...] [--write-sizes N,N,...] [--buffer BYTES]"
        + " [--replication N,N,...] [--mib N] [--rounds N] [--out DIR]";
  }

  @Override
  protected int execute(CommandLine line, Console console) throws Exception {
    Map<String, String> given = new HashMap<>();
    for (Option option : line.getOptions()) {
      given.put(option.getLongOpt(), option.getValue());
    }
    ChecksumBenchRequest request;
    try {
      request = ChecksumBenchRequest.parse(given);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    File log = new File(request.out(), "hadoop.log");
    HadoopLogFile.redirectTo(log);
    console.err().println("Hadoop's own logs: " + log);
    try {
      new ChecksumBench(request).run(console.out(), console.err());
    } catch (BenchException e) {
      throw new LocusException(e.getMessage(), e);
    }
    return 0;
  }
}
