package org.locus.cli.hadoop;

import java.util.Arrays;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.locus.cli.command.ClientConfiguration;
import org.locus.cli.command.Command;
import org.locus.cli.command.Console;
import org.locus.cli.command.UsageException;

/**
 * Runs one of Hadoop's own command-line tools ({@code FsShell}, {@code DFSck}) against the
 * cluster named by {@code --conf DIR} or {@code HADOOP_CONF_DIR}. Every argument after the
 * optional {@code --conf DIR} goes to the Hadoop tool unchanged.
 */
public abstract class HadoopToolCommand implements Command {
  private final String path;

  protected HadoopToolCommand(String path) {
    this.path = path;
  }

  /** @return the Hadoop tool to run with this configuration */
  protected abstract Tool createTool(Configuration conf) throws java.io.IOException;

  /** @return an example argument list for the help text */
  protected abstract String example();

  @Override
  public int run(String[] args, Console console) throws Exception {
    if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
      console.out().println("usage: " + path + " [--conf DIR] <arguments of Hadoop's tool>");
      console.out().println();
      console.out().println(summary());
      console.out().println("DIR is a 'locus cluster up' directory or a Hadoop configuration"
          + " directory; without --conf, HADOOP_CONF_DIR is used.");
      console.out().println("example: " + path + " --conf /tmp/c " + example());
      return 0;
    }
    String conf = null;
    String[] toolArgs = args;
    if (args.length > 0 && args[0].equals("--conf")) {
      if (args.length < 2) {
        throw new UsageException("--conf needs a directory");
      }
      conf = args[1];
      toolArgs = Arrays.copyOfRange(args, 2, args.length);
    }
    Configuration configuration = ClientConfiguration.load(conf);
    return ToolRunner.run(configuration, createTool(configuration), toolArgs);
  }
}
