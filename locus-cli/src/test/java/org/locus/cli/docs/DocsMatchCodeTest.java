package org.locus.cli.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The documentation says what the code does: every configuration key a module declares in its
 * {@code *Keys} classes is documented in its page {@code docs/FEATURE.md} (FEATURE = the last
 * word of the module's name), every {@code locus.FEATURE.*} key a page or a feature key set
 * names exists in the code, every feature key set is a file Hadoop's own {@link Configuration}
 * loads, and no page points outside the repository.
 */
class DocsMatchCodeTest {
  private static final Pattern KEY_CONSTANT = Pattern.compile(
      "static final String ([A-Z0-9_]+)\\s*=\\s*\"([a-z][a-z0-9-]*(?:\\.[a-z0-9-]+)+)\"");

  @Test
  void everyDeclaredKeyIsDocumentedInItsFeaturePage() throws IOException {
    Map<String, Set<String>> undocumented = new TreeMap<>();
    declaredKeys().forEach((feature, keys) -> {
      String page = expandBraces(read(new File(RepositoryDocs.root(),
          "docs/" + feature + ".md")));
      for (String key : keys) {
        if (!page.contains(key)) {
          undocumented.computeIfAbsent("docs/" + feature + ".md", f -> new TreeSet<>()).add(key);
        }
      }
    });
    assertEquals(Map.of(), undocumented, "keys declared in code but missing from their page");
  }

  @Test
  void everyLocusKeyInAPageOrKeySetIsDeclaredInCode() throws IOException {
    Map<String, Set<String>> declared = declaredKeys();
    Map<String, Set<String>> unknown = new TreeMap<>();
    for (String feature : declared.keySet()) {
      // Not preceded by a word or a dot: org.locus.kat.hint is a package, not a key.
      Pattern named = Pattern.compile("(?<![\\w.])locus\\." + Pattern.quote(feature)
          + "(?:\\.[a-z0-9-]+)+");
      for (String file : List.of("docs/" + feature + ".md", "conf/features/" + feature + ".xml")) {
        File source = new File(RepositoryDocs.root(), file);
        if (file.startsWith("conf/") && !source.exists()) {
          continue; // a module of job keys only (the AM's) has no cluster key set
        }
        Matcher m = named.matcher(expandBraces(read(source)));
        while (m.find()) {
          String key = m.group().replaceAll("\\.$", "");
          if (!declared.get(feature).contains(key)) {
            unknown.computeIfAbsent(file, f -> new TreeSet<>()).add(key);
          }
        }
      }
    }
    assertEquals(Map.of(), unknown, "keys named in docs or key sets that no *Keys class has");
  }

  @Test
  void everyFeatureKeySetIsAHadoopConfigurationFile() {
    File[] sets = new File(RepositoryDocs.root(), "conf/features").listFiles(
        (d, n) -> n.endsWith(".xml"));
    assertTrue(sets != null && sets.length > 0, "conf/features has key sets");
    for (File set : sets) {
      Configuration conf = new Configuration(false);
      conf.addResource(new org.apache.hadoop.fs.Path(set.toURI()));
      // Hadoop parses lazily: size() forces the parse and throws on a malformed file.
      assertTrue(conf.size() > 0, set + " sets no property");
    }
  }

  @Test
  void noPagePointsOutsideTheRepository() throws IOException {
    List<String> outside = new ArrayList<>();
    for (File page : RepositoryDocs.pages()) {
      List<String> lines = Files.readAllLines(page.toPath());
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains("../shared") || lines.get(i).contains("/work/")) {
          outside.add(page.getName() + ":" + (i + 1) + ": " + lines.get(i).trim());
        }
      }
    }
    assertEquals(List.of(), outside, "a reader of the repository alone cannot follow these");
  }

  /** Feature → keys declared in the {@code *Keys.java} sources of its module. */
  private static Map<String, Set<String>> declaredKeys() throws IOException {
    Map<String, Set<String>> keys = new TreeMap<>();
    File[] modules = RepositoryDocs.root().listFiles(
        f -> new File(f, "pom.xml").isFile() && new File(f, "src/main/java").isDirectory());
    for (File module : modules) {
      String feature = module.getName().substring(module.getName().lastIndexOf('-') + 1);
      try (Stream<Path> files = Files.walk(new File(module, "src/main/java").toPath())) {
        for (Path source : files.filter(p -> p.toString().endsWith("Keys.java")).toList()) {
          Matcher m = KEY_CONSTANT.matcher(Files.readString(source));
          while (m.find()) {
            if (!m.group(1).endsWith("_DEFAULT")) {
              keys.computeIfAbsent(feature, f -> new TreeSet<>()).add(m.group(2));
            }
          }
        }
      }
    }
    assertFalse(keys.isEmpty(), "the modules declare configuration keys");
    return keys;
  }

  /** {@code a.{b,c}.d} as a table writes it → {@code a.b.d a.c.d}. */
  static String expandBraces(String text) {
    Matcher m = Pattern.compile("([a-z0-9.-]*)\\{([a-z0-9-]+(?:,[a-z0-9-]+)+)\\}([a-z0-9.-]*)")
        .matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      StringBuilder words = new StringBuilder();
      for (String part : m.group(2).split(",")) {
        words.append(m.group(1)).append(part).append(m.group(3)).append(' ');
      }
      m.appendReplacement(out, Matcher.quoteReplacement(words.toString().trim()));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String read(File file) {
    try {
      return Files.readString(file.toPath());
    } catch (IOException e) {
      throw new AssertionError("cannot read " + file + " (" + e + ")", e);
    }
  }
}
