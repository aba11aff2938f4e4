package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Stand-ins for zonectl, mount, umount and the privileged helper locus-priv: bash scripts in
 * one directory that append their name and argument vector to a shared log, print a chosen
 * stdout and stderr and exit with a chosen code. Unless told otherwise a script named zonectl
 * answers like the real one (area: {@code state=reserved class=<--class>}; hold:
 * {@code state=held class=<--class>}; else {@code state=none}), one named locus-priv like the
 * helper running it (the class is its verb's second argument), and others print nothing.
 * Answers are files NAME.COMMAND.{out,err,exit,hang} (COMMAND = the first argument) or
 * NAME.{out,err,exit}.
 */
public final class FakeCommands {

  private static final String SCRIPT = String.join("\n",
      "#!/bin/bash",
      "here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"",
      "name=\"$(basename \"$0\")\"",
      "(IFS=$'\\t'; printf '%s\\n' \"$name${*:+$'\\t'}$*\") >> \"$here/calls\"",
      "key=\"$here/$name.$1\"",
      "[ -f \"$key.hang\" ] && exec sleep 60",
      "pick() { if [ -f \"$key.$1\" ]; then cat \"$key.$1\"; "
          + "elif [ -f \"$here/$name.$1\" ]; then cat \"$here/$name.$1\"; else return 1; fi; }",
      "pick err >&2",
      "if ! pick out && { [ \"$name\" = zonectl ] || [ \"$name\" = locus-priv ]; }; then",
      "  if [ \"$1\" = area ]; then",
      "    cls=none; prev=; for a in \"$@\"; do [ \"$prev\" = --class ] && cls=$a; prev=$a; done",
      "    [ \"$name\" = locus-priv ] && cls=$3",
      "    echo \"state=reserved class=$cls start=0 end=4096 block_size=4096"
          + " free_blocks=2031 fs_free_blocks=2031\"",
      "  elif [ \"$1\" = hold ]; then",
      "    cls=none; prev=; for a in \"$@\"; do [ \"$prev\" = --class ] && cls=$a; prev=$a; done",
      "    [ \"$name\" = locus-priv ] && cls=$3",
      "    echo \"state=held class=$cls start=0 end=4096 block_size=4096"
          + " free_blocks=2031 held_blocks=12288\"",
      "  else",
      "    echo \"state=none class=none start=0 end=0 block_size=4096"
          + " free_blocks=14319 fs_free_blocks=14319\"",
      "  fi",
      "fi",
      "exit \"$(pick exit || echo 0)\"",
      "");

  private final Path dir;

  public FakeCommands(Path dir) {
    this.dir = dir;
  }

  /** Writes the script NAME and returns its absolute path. */
  public String create(String name) throws IOException {
    Path script = dir.resolve(name);
    Files.writeString(script, SCRIPT, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script.toAbsolutePath().toString();
  }

  /** NAME COMMAND ... prints stdout (a line) and stderr and exits with the code. */
  public void answer(String name, String command, String stdout, String stderr, int exit)
      throws IOException {
    String key = command == null ? name : name + "." + command;
    Files.writeString(dir.resolve(key + ".out"), stdout.isEmpty() ? "" : stdout + "\n");
    Files.writeString(dir.resolve(key + ".err"), stderr.isEmpty() ? "" : stderr + "\n");
    Files.writeString(dir.resolve(key + ".exit"), Integer.toString(exit));
  }

  /** NAME COMMAND ... never finishes by itself. */
  public void hang(String name, String command) throws IOException {
    Files.writeString(dir.resolve(name + "." + command + ".hang"), "");
  }

  /** Every run so far, in order: the script's name, then its arguments. */
  public List<List<String>> calls() throws IOException {
    Path log = dir.resolve("calls");
    List<List<String>> calls = new ArrayList<>();
    if (Files.exists(log)) {
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        calls.add(Arrays.asList(line.split("\t", -1)));
      }
    }
    return calls;
  }
}
