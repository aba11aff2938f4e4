package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages of locus-cli depend on each other one way (issue 44 item 2): the command
 * framework ({@code org.locus.cli.command}) uses no command package, no package uses the entry
 * point's package ({@code org.locus.cli}, where {@link Locus} registers every command package),
 * and no two packages reach each other. Read from the compiled classes, so a reference written
 * with a full class name counts as an import does.
 */
class CliPackagesHaveNoCycleTest {
  private static final String ROOT = "org.locus.cli";
  private static final String FRAMEWORK = ROOT + ".command";

  /** Package of locus-cli → the other packages of locus-cli its classes refer to. */
  private static Map<String, Set<String>> uses;

  @BeforeAll
  static void readTheCompiledClasses() throws IOException, URISyntaxException {
    uses = packageUses(Path.of(Locus.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()));
    // Guards against a scan that finds nothing and so passes: two uses every layout has.
    assertTrue(uses.getOrDefault(ROOT, Set.of()).contains(ROOT + ".bench"),
        "Locus registers the bench commands: " + uses);
    assertTrue(uses.getOrDefault(ROOT + ".bench", Set.of()).contains(FRAMEWORK),
        "the bench commands are built on the framework: " + uses);
  }

  @Test
  void theCommandFrameworkUsesNoOtherPackageOfTheLauncher() {
    assertEquals(Set.of(), uses.getOrDefault(FRAMEWORK, Set.of()),
        FRAMEWORK + " is what commands are built from; it must not know any command");
  }

  @Test
  void noPackageUsesTheEntryPointsPackage() {
    Set<String> users = new TreeSet<>();
    uses.forEach((from, to) -> {
      if (to.contains(ROOT)) {
        users.add(from);
      }
    });
    assertEquals(Set.of(), users, ROOT + " registers every command package; what the commands"
        + " share belongs in " + FRAMEWORK + " or in the package of the command that owns it");
  }

  @Test
  void noTwoPackagesReachEachOther() {
    List<Set<String>> cycles = new ArrayList<>();
    Set<String> placed = new TreeSet<>();
    for (String from : uses.keySet()) {
      if (placed.contains(from)) {
        continue;
      }
      Set<String> cycle = new TreeSet<>();
      for (String to : reachableFrom(from)) {
        if (!to.equals(from) && reachableFrom(to).contains(from)) {
          cycle.add(to);
        }
      }
      if (!cycle.isEmpty()) {
        cycle.add(from);
        placed.addAll(cycle);
        cycles.add(cycle);
      }
    }
    assertEquals(List.of(), cycles, "packages of locus-cli that reach each other, " + uses);
  }

  private static Set<String> reachableFrom(String start) {
    Set<String> seen = new TreeSet<>();
    List<String> todo = new ArrayList<>(List.of(start));
    while (!todo.isEmpty()) {
      for (String next : uses.getOrDefault(todo.remove(todo.size() - 1), Set.of())) {
        if (seen.add(next)) {
          todo.add(next);
        }
      }
    }
    return seen;
  }

  /** @param classes a directory or jar of compiled classes */
  private static Map<String, Set<String>> packageUses(Path classes) throws IOException {
    if (Files.isDirectory(classes)) {
      return packageUsesUnder(classes);
    }
    try (FileSystem jar = FileSystems.newFileSystem(classes)) {
      return packageUsesUnder(jar.getPath("/"));
    }
  }

  private static Map<String, Set<String>> packageUsesUnder(Path root) throws IOException {
    Map<String, Set<String>> result = new TreeMap<>();
    String prefix = ROOT.replace('.', '/') + "/";
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name = root.relativize(file).toString().replace('\\', '/');
        if (!name.startsWith(prefix) || name.endsWith("package-info.class")) {
          continue;
        }
        String from = packageOf(name);
        Set<String> to = result.computeIfAbsent(from, p -> new TreeSet<>());
        try (InputStream in = Files.newInputStream(file)) {
          for (String text : constantPoolTexts(in)) {
            // Class names and the descriptors of fields and methods, in internal form.
            int at = text.indexOf(prefix);
            while (at >= 0) {
              int end = at;
              while (end < text.length() && text.charAt(end) != ';' && text.charAt(end) != '<'
                  && text.charAt(end) != '[' && text.charAt(end) != '(') {
                end++;
              }
              String other = packageOf(text.substring(at, end));
              if (!other.equals(from)) {
                to.add(other);
              }
              at = text.indexOf(prefix, end);
            }
          }
        }
      }
    }
    return result;
  }

  private static String packageOf(String internalName) {
    return internalName.substring(0, internalName.lastIndexOf('/')).replace('/', '.');
  }

  /**
   * The UTF-8 entries of a class file's constant pool (JVMS §4.4): every class it names, the
   * descriptors and signatures of its members and of those it calls, and its string literals.
   */
  private static List<String> constantPoolTexts(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(new BufferedInputStream(stream));
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor version
    in.readUnsignedShort(); // major version
    int count = in.readUnsignedShort();
    List<String> texts = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> texts.add(in.readUTF()); // Utf8: u2 length, modified UTF-8 as readUTF reads
        case 7, 8, 16, 19, 20 -> in.skipNBytes(2); // Class, String, MethodType, Module, Package
        case 15 -> in.skipNBytes(3); // MethodHandle
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
        case 5, 6 -> { // Long, Double take two entries
          in.skipNBytes(8);
          i++;
        }
        default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
      }
    }
    return texts;
  }
}
