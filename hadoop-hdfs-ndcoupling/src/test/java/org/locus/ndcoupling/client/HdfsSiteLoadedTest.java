package org.locus.ndcoupling.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locus.ndcoupling.fatbtree.client.FatBtreeFileSystem;

/**
 * A daemon that has not touched HDFS's own classes yet (the JobHistory server opening its done
 * directory on {@code locus://} through {@code FileContext}) must still see the nameservices of
 * {@code hdfs-site.xml} when it opens one of our file systems: without them the JobHistory server
 * of a coupled cluster exited at start. Each case runs in a JVM of its own, the only place where
 * no HDFS class has been loaded before.
 */
class HdfsSiteLoadedTest {

  /** The child: makes a plain Configuration, then opens a file system class, then reads. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      Configuration conf = new Configuration();
      Class.forName(args[0]).getDeclaredConstructor().newInstance();
      System.out.print(String.join(",", StoredMountTableResolver.partitions(conf)));
    }
  }

  @ParameterizedTest
  @ValueSource(classes = {LocusFileSystem.class, FatBtreeFileSystem.class})
  void aConfigurationMadeBeforeTheFileSystemSeesHdfsSite(Class<?> fileSystem, @TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve("hdfs-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>"
        + "<property><name>dfs.nameservices</name><value>ns1,ns2,ns3</value></property>"
        + "</configuration>\n");
    List<String> argv = new ArrayList<>(List.of(
        new File(System.getProperty("java.home"), "bin/java").getPath(), "-cp",
        dir + File.pathSeparator + System.getProperty("java.class.path"),
        Child.class.getName(), fileSystem.getName()));
    Process child = new ProcessBuilder(argv).redirectError(dir.resolve("stderr").toFile())
        .start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = child.waitFor();
    assertEquals(0, code, "child failed: " + Files.readString(dir.resolve("stderr")));
    assertEquals("ns1,ns2,ns3", out);
  }
}
