package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * A stock Hadoop 3.5.0 installation for the cluster's daemons: {@code DIR/hadoop/lib/} holds
 * links to the unmodified Apache jars (the provided dependencies this module was built
 * against, listed in {@code stock-hadoop.classpath}), {@code DIR/hadoop/share/hadoop/hdfs/}
 * the empty {@code webapps/*}/WEB-INF directories a distribution ships and the hdfs jar lacks.
 * No Locus jar is in it; Locus code comes only from the dist bundle.
 */
public final class StockInstallation {
  private static final String JAR_LIST = "stock-hadoop.classpath";
  private static final List<String> WEBAPPS = List.of("hdfs", "datanode", "secondary",
      "journal");

  private final File home;

  public StockInstallation(File home) {
    this.home = home;
  }

  public File libDir() {
    return new File(home, "lib");
  }

  /** @return the directory that holds {@code webapps/} (a distribution's share/hadoop/hdfs) */
  public File webappsParent() {
    return new File(home, "share/hadoop/hdfs");
  }

  /** @return the jars of the stock installation, as built into this module */
  public static List<File> jars() throws IOException {
    try (InputStream in = StockInstallation.class.getResourceAsStream(JAR_LIST)) {
      if (in == null) {
        throw new IOException(JAR_LIST + " is missing from the locus-netns jar; rebuild it");
      }
      List<File> jars = new ArrayList<>();
      for (String path : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim()
          .split(File.pathSeparator)) {
        File jar = new File(path);
        if (!jar.isFile()) {
          throw new IOException("stock Hadoop jar " + jar + " is missing; run scripts/setup");
        }
        jars.add(jar);
      }
      return jars;
    }
  }

  /** Lays the installation out under its home, with symbolic links to the jars. */
  public void install() throws IOException {
    install(false);
  }

  /**
   * Lays the installation out under its home.
   *
   * @param forOtherUsers whether daemons that are not root read it ({@link DaemonUsers}): then
   *     each jar is a hard link, or a copy where the local repository is on another file
   *     system, because a symbolic link into root's {@code ~/.m2} (mode 0700) reads only as root
   */
  public void install(boolean forOtherUsers) throws IOException {
    Files.createDirectories(libDir().toPath());
    for (File jar : jars()) {
      File link = new File(libDir(), jar.getName());
      if (Files.exists(link.toPath(), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      if (!forOtherUsers) {
        Files.createSymbolicLink(link.toPath(), jar.toPath());
        continue;
      }
      try {
        Files.createLink(link.toPath(), jar.toPath());
      } catch (IOException | UnsupportedOperationException e) {
        Files.copy(jar.toPath(), link.toPath());
      }
    }
    for (String webapp : WEBAPPS) {
      Files.createDirectories(new File(webappsParent(), "webapps/" + webapp + "/WEB-INF")
          .toPath());
    }
  }
}
