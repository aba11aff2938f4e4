package org.locus.cli.command;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A command whose first argument selects one of several subcommands. */
public class CommandGroup implements Command {
  private final String name;
  private final String path;
  private final String summary;
  private final Map<String, Command> children = new LinkedHashMap<>();

  /**
   * @param name this group's word
   * @param path the words that lead here, for messages, e.g. {@code locus cluster}
   * @param summary one line for the parent's help
   */
  public CommandGroup(String name, String path, String summary, List<Command> children) {
    this.name = name;
    this.path = path;
    this.summary = summary;
    for (Command child : children) {
      this.children.put(child.name(), child);
    }
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
    if (args.length == 0) {
      throw new UsageException("missing subcommand; one of: " + String.join(", ",
          children.keySet()));
    }
    String word = args[0];
    if (word.equals("--help") || word.equals("-h") || word.equals("help")) {
      printHelp(console);
      return 0;
    }
    Command child = children.get(word);
    if (child == null) {
      throw new UsageException("unknown subcommand '" + word + "'; one of: "
          + String.join(", ", children.keySet()));
    }
    return child.run(Arrays.copyOfRange(args, 1, args.length), console);
  }

  private void printHelp(Console console) {
    console.out().println("usage: " + path + " <subcommand> [options]");
    console.out().println();
    console.out().println(summary);
    console.out().println();
    console.out().println("Subcommands:");
    int width = children.keySet().stream().mapToInt(String::length).max().orElse(0);
    for (Command child : children.values()) {
      console.out().printf("  %-" + width + "s  %s%n", child.name(), child.summary());
    }
    console.out().println();
    console.out().println("Run '" + path + " <subcommand> --help' for a subcommand's options.");
  }
}
