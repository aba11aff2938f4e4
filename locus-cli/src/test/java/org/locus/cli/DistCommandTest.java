package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.Test;

/**
 * {@code locus dist}: the bundle holds our module jars and no Hadoop jar, the feature key sets
 * and install.md. Needs the modules built (mvn install); under a second.
 */
class DistCommandTest {
  private static final File OUT = new File("target/test-dist").getAbsoluteFile();

  @Test
  void bundleHoldsOurJarsAndNoHadoopJar() throws Exception {
    FileUtil.fullyDelete(OUT);
    CliRun run = CliRun.inProcess("dist", "--out", OUT.getPath());
    assertEquals(0, run.exitCode(), run.toString());
    File[] jars = new File(OUT, "share/locus/lib").listFiles();
    List<String> names = Arrays.stream(jars).map(File::getName).map(n -> n.replaceFirst(
        "-[0-9][^-]*(-SNAPSHOT)?\\.jar$", "")).sorted().toList();
    assertEquals(List.of("hadoop-hdfs-boost", "hadoop-hdfs-energy", "hadoop-hdfs-kat",
        "hadoop-hdfs-lowpower", "hadoop-hdfs-ndcoupling", "hadoop-hdfs-placement",
        "hadoop-yarn-zone", "locus-jobs", "locus-mapreduce-am"), names);
    for (File jar : jars) {
      try (JarFile file = new JarFile(jar)) {
        assertTrue(file.stream().anyMatch(e -> e.getName().startsWith(
            "META-INF/maven/org.locus/")), jar + " is a Locus artifact");
        assertTrue(file.stream().noneMatch(e -> e.getName().startsWith(
            "META-INF/maven/org.apache.hadoop/")), jar + " bundles no Hadoop artifact");
      }
    }
    for (String file : List.of("conf/features/kat.xml", "conf/features/energy.xml",
        "conf/features/zone.xml", "docs/install.md")) {
      assertTrue(new File(OUT, file).isFile(), file);
    }
  }
}
