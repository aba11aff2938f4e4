package org.locus.bench.run;

import java.io.File;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * {@code --cluster local}: MapReduce's LocalJobRunner on the local file system, no daemons. For
 * checking a suite end to end in seconds; its timings are not a cluster's, and feature keys
 * that act in HDFS or YARN daemons have no effect there.
 */
public final class LocalRunnerCluster implements BenchCluster {
  private final Configuration conf;
  private final Path root;

  private LocalRunnerCluster(Configuration conf, Path root) {
    this.conf = conf;
    this.root = root;
  }

  /** @return a factory whose clusters keep their data under {@code dir/<feature>} */
  public static Factory factory(File dir) {
    return (feature, keys) -> {
      Configuration conf = new Configuration();
      conf.set("mapreduce.framework.name", "local");
      File root = new File(dir, feature).getAbsoluteFile();
      root.mkdirs();
      conf.set("fs.defaultFS", "file:///");
      conf.setInt("mapreduce.task.io.sort.mb", 16);
      // The client looks for the job's end every 5 s by default, which a recorded wall time
      // would carry (a local job takes a second or two); 100 ms, as it is cheap locally.
      conf.setInt("mapreduce.client.completion.pollinterval", 100);
      conf.setInt("mapreduce.client.progressmonitor.pollinterval", 100);
      for (java.util.Map.Entry<String, String> key : keys) {
        conf.set(key.getKey(), key.getValue());
      }
      return new LocalRunnerCluster(conf, new Path(root.toURI()));
    };
  }

  @Override
  public Configuration conf() {
    return conf;
  }

  @Override
  public Path root() {
    return root;
  }

  @Override
  public void close() {
  }
}
