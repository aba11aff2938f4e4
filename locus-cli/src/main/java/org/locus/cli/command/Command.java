package org.locus.cli.command;

/**
 * One {@code locus} subcommand (or group of subcommands).
 *
 * <p>{@link #run} returns the process exit code; it signals a bad command line with
 * {@link UsageException} and a failed action with {@link LocusException}. Every command
 * answers {@code --help} with its usage and exit code 0.
 */
public interface Command {
  /** @return the word that selects this command, e.g. {@code cluster} */
  String name();

  /** @return one line for the parent's help listing */
  String summary();

  /**
   * @param args the arguments after this command's name
   * @param console where to print
   */
  int run(String[] args, Console console) throws Exception;
}
