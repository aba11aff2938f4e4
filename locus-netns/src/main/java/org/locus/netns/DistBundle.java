package org.locus.netns;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;


/**
 * The bundle an operator adds to a stock Hadoop 3.5.0 installation ({@code locus dist}):
 *
 * <pre>
 *   share/locus/lib/*.jar   the Locus feature jars and the jobs jar; no Hadoop jar, no
 *                           third-party jar (every dependency is one Hadoop ships)
 *   conf/features/*.xml     each feature's documented keys
 *   bin/                    the C tools that were built (zonectl, morphctl, morphstore-fuse,
 *                           the privileged helper locus-priv, the emulated disk zonedisk)
 *   docs/install.md         where the jars go and which keys turn each feature on
 * </pre>
 *
 * A checkout that is not built (no jar of a module, no feature key sets) is an
 * {@link IllegalStateException} naming what is missing.
 */
public final class DistBundle {
  /**
   * Where the build assembles the bundle's jars ({@code locus-dist}, at package): that
   * module's dependencies are the one list of the modules that ship.
   */
  static final String BUILT_JARS = "locus-dist/target/lib";
  /**
   * C tools, relative to the Locus home; copied when built. {@code locus-priv-netns} is the
   * helper built to read the configuration a netns cluster with {@code --daemon-users} writes
   * ({@link NetnsPrivilegedHelper}); operators install {@code locus-priv}.
   */
  static final List<String> TOOLS = List.of("zonectl/zonectl", "morphstore-kmod/build/morphctl",
      "morphstore-kmod/build/morphstore-fuse", "locus-priv/locus-priv",
      "locus-priv/locus-priv-netns", "zonectl/zonedisk/zonedisk");

  private final File home;

  /** @param home the Locus checkout the bundle is built from (built with scripts/setup) */
  public DistBundle(File home) {
    this.home = home;
  }

  /** @return the bundle's jar directory under {@code out} */
  public static File libDir(File out) {
    return new File(out, "share/locus/lib");
  }

  /**
   * Writes the bundle into {@code out} (replacing an older bundle's files).
   *
   * @return the files written, relative to {@code out}
   */
  public List<String> writeTo(File out) throws IOException {
    List<String> written = new ArrayList<>();
    File lib = libDir(out);
    Files.createDirectories(lib.toPath());
    File[] old = lib.listFiles((d, n) -> n.endsWith(".jar"));
    if (old != null) {
      for (File jar : old) {
        Files.delete(jar.toPath());
      }
    }
    for (File jar : builtJars()) {
      copy(jar, new File(lib, jar.getName()));
      written.add("share/locus/lib/" + jar.getName());
    }
    File features = new File(home, "conf/features");
    File[] xmls = features.listFiles((d, n) -> n.endsWith(".xml"));
    if (xmls == null || xmls.length == 0) {
      throw new IllegalStateException("no feature key sets in " + features + "; is " + home
          + " a Locus checkout?");
    }
    for (File xml : xmls) {
      copy(xml, new File(out, "conf/features/" + xml.getName()));
      written.add("conf/features/" + xml.getName());
    }
    for (String tool : TOOLS) {
      File binary = new File(home, tool);
      if (binary.isFile() && binary.canExecute()) {
        File target = new File(out, "bin/" + binary.getName());
        copy(binary, target);
        if (!target.setExecutable(true, false)) {
          throw new IOException("cannot make " + target + " executable");
        }
        written.add("bin/" + binary.getName());
      }
    }
    copy(new File(home, "docs/install.md"), new File(out, "docs/install.md"));
    written.add("docs/install.md");
    return written;
  }

  /**
   * @return the jars the build assembled for the bundle, by name
   * @throws IllegalStateException when the checkout has not been built
   */
  public List<File> builtJars() {
    File dir = new File(home, BUILT_JARS);
    File[] jars = dir.listFiles((d, n) -> n.endsWith(".jar"));
    if (jars == null || jars.length == 0) {
      throw new IllegalStateException("no bundle jars in " + dir + "; build with scripts/setup"
          + " first (mvn install assembles them in locus-dist)");
    }
    List<File> sorted = new ArrayList<>(List.of(jars));
    sorted.sort(Comparator.comparing(File::getName));
    return sorted;
  }

  private static void copy(File from, File to) throws IOException {
    Files.createDirectories(to.getParentFile().toPath());
    Files.copy(from.toPath(), to.toPath(), StandardCopyOption.REPLACE_EXISTING);
  }
}
