package org.locus.cli.lowpower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;
import org.locus.bench.codec.CodecComparison;

/**
 * The licence separation of the LZO remedy: the GPL-3.0 codec (module locus-lzo, its jars
 * lzo-hadoop and lzo-core) is on no classpath of the default Locus jars. The classpath checked
 * is this test's, a superset of locus-cli's runtime classpath that {@code bin/locus} runs.
 * Costs about 2 s (lists every jar).
 */
class DefaultBundleHasNoGplCodeTest {
  /** Package prefixes of lzo-hadoop and lzo-core, including their Hadoop-named shims. */
  private static final List<String> GPL_PREFIXES = List.of(
      "org/anarres/lzo/", "com/hadoop/compression/lzo/", "com/hadoop/mapreduce/Lzo",
      "org/apache/hadoop/io/compress/LzoCodec", "org/apache/hadoop/io/compress/LzopCodec",
      "org/locus/lzo/");

  @Test
  void lzoCodecClassesAreNotLoadable() {
    for (String name : List.of(CodecComparison.LZO_CODECS.get(0),
        CodecComparison.LZO_CODECS.get(1), "com.hadoop.compression.lzo.LzoCodec",
        "org.apache.hadoop.io.compress.LzoCodec", "org.locus.lzo.LzoJobCompression")) {
      assertThrows(ClassNotFoundException.class,
          () -> Class.forName(name, false, getClass().getClassLoader()), name);
    }
  }

  @Test
  void noClasspathEntryIsAnLzoArtifact() {
    List<String> entries = classpath();
    assertTrue(entries.size() > 50, "suspiciously short classpath: " + entries);
    List<String> lzo = entries.stream()
        .filter(e -> e.contains("/org/anarres/") || new File(e).getName().contains("lzo"))
        .toList();
    assertEquals(List.of(), lzo);
  }

  @Test
  void noJarOnTheClasspathHoldsAnLzoClass() throws IOException {
    List<String> found = new ArrayList<>();
    for (String entry : classpath()) {
      if (!entry.endsWith(".jar") || !new File(entry).isFile()) {
        continue;
      }
      try (JarFile jar = new JarFile(entry)) {
        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
          String name = e.nextElement().getName();
          if (GPL_PREFIXES.stream().anyMatch(name::startsWith)) {
            found.add(entry + "!" + name);
          }
        }
      }
    }
    assertEquals(List.of(), found);
  }

  private static List<String> classpath() {
    return List.of(System.getProperty("java.class.path").split(File.pathSeparator));
  }
}
