package org.locus.cli.cluster;

import java.io.File;
import java.util.Properties;

import org.apache.commons.cli.CommandLine;
import org.locus.cli.command.Console;
import org.locus.cli.command.LocusException;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.ClusterProcessException;
import org.locus.netns.DistBundle;
import org.locus.netns.NetnsClusterProcess;
import org.locus.netns.NetnsClusterSpec;

/**
 * {@code locus cluster up --netns}: turns the parsed options into a {@link NetnsClusterSpec},
 * has {@link NetnsClusterProcess} start the cluster in the background, and prints its status.
 */
final class NetnsUp {
  private final ClusterDirectory dir;

  NetnsUp(ClusterDirectory dir) {
    this.dir = dir;
  }

  int start(CommandLine line, ClusterSpec base, FeatureCatalog catalog, Console console)
      throws Exception {
    ClusterLayout layout = new ClusterLayout(dir.root());
    NetnsClusterSpec spec = NetnsOptions.from(line, base, catalog,
        DistBundle.libDir(layout.distDir()), layout);
    String home = System.getProperty("locus.home");
    Properties state;
    try {
      NetnsClusterProcess.check(dir, spec);
      if (home == null) {
        throw new LocusException("locus.home is not set; run through bin/locus");
      }
      state = NetnsClusterProcess.start(dir, spec, new File(home), console.err());
    } catch (ClusterProcessException e) {
      throw new LocusException(e.getMessage(), e);
    }
    NetnsStatus.print(dir, state, console);
    console.out().printf("%nclients: export HADOOP_CONF_DIR=%s   (or pass --conf %s)%n",
        dir.confDir(), dir.root());
    return 0;
  }
}
