package org.locus.ndcoupling.shift;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Shell;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * Switches DataNodes with the operator's commands ({@code locus.ndcoupling.gear.stop-command},
 * {@code start-command}): each split on whitespace into an argument vector, {@code {host}}
 * replaced in every argument, run without a shell through Hadoop's {@link Shell}, so a host
 * name can never be read as shell syntax.
 */
public final class CommandNodeSwitch implements NodeSwitch {
  private final List<String> stop;
  private final List<String> start;

  private CommandNodeSwitch(List<String> stop, List<String> start) {
    this.stop = stop;
    this.start = start;
  }

  /** @return the switch the configuration names, or null when neither command is set */
  public static CommandNodeSwitch from(Configuration conf) {
    String stop = conf.getTrimmed(NdCouplingConfigKeys.GEAR_STOP_COMMAND, "");
    String start = conf.getTrimmed(NdCouplingConfigKeys.GEAR_START_COMMAND, "");
    if (stop.isEmpty() && start.isEmpty()) {
      return null;
    }
    if (stop.isEmpty() || start.isEmpty()) {
      throw new IllegalArgumentException("set both " + NdCouplingConfigKeys.GEAR_STOP_COMMAND
          + " and " + NdCouplingConfigKeys.GEAR_START_COMMAND + ", or neither");
    }
    return new CommandNodeSwitch(List.of(stop.split("\\s+")), List.of(start.split("\\s+")));
  }

  /** @return the argument vector for {@code host} */
  static List<String> argv(List<String> template, String host) {
    List<String> argv = new ArrayList<>();
    for (String arg : template) {
      argv.add(arg.replace("{host}", host));
    }
    return argv;
  }

  @Override
  public void off(String host) throws IOException {
    run(argv(stop, host), host, NdCouplingConfigKeys.GEAR_STOP_COMMAND);
  }

  @Override
  public void on(String host) throws IOException {
    run(argv(start, host), host, NdCouplingConfigKeys.GEAR_START_COMMAND);
  }

  private static void run(List<String> argv, String host, String key) throws IOException {
    Shell.ShellCommandExecutor command =
        new Shell.ShellCommandExecutor(argv.toArray(new String[0]));
    try {
      command.execute();
    } catch (Shell.ExitCodeException e) {
      throw new IOException(key + " for " + host + " (" + String.join(" ", argv)
          + ") exited " + e.getExitCode() + ": " + e.getMessage().trim(), e);
    }
  }
}
