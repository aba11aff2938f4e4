package org.locus.bench.run;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.NetnsClusterProcess;

/** What every bench that starts its own netns cluster needs: its client keys, a quiet stop. */
public final class NetnsBenchClusters {
  private static final String[] SITE_FILES =
      {"core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml"};

  private NetnsBenchClusters() {
  }

  /** @return the client configuration the cluster wrote into {@code DIR/conf} */
  public static Configuration clientConfiguration(ClusterDirectory dir) {
    Configuration conf = new JobConf(new YarnConfiguration(new HdfsConfiguration()));
    for (String site : SITE_FILES) {
      File file = new File(dir.confDir(), site);
      if (file.isFile()) {
        conf.addResource(new Path(file.toURI()));
      }
    }
    return conf;
  }

  /** Stops the cluster; its report goes to {@code err} only when the stop fails. */
  public static void stopQuietly(ClusterDirectory dir, PrintStream err) {
    ByteArrayOutputStream quiet = new ByteArrayOutputStream();
    try {
      NetnsClusterProcess.stop(dir, new PrintStream(quiet, true, StandardCharsets.UTF_8));
    } catch (Exception e) {
      err.print(quiet.toString(StandardCharsets.UTF_8));
      err.println("netns cluster in " + dir.root() + ": " + e.getMessage());
    }
  }
}
