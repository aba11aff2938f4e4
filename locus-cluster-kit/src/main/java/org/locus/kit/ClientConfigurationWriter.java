package org.locus.kit;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * Writes a running cluster's configuration as the four stock Hadoop site files.
 *
 * <p>Only keys whose value differs from Hadoop's shipped defaults are written, each to the file
 * its prefix belongs to ({@code dfs.} to hdfs-site, {@code yarn.} to yarn-site,
 * {@code mapreduce.}/{@code mapred.} to mapred-site, the rest to core-site), so the files read
 * like an operator's own.
 */
final class ClientConfigurationWriter {
  private final Configuration source;

  ClientConfigurationWriter(Configuration source) {
    this.source = source;
  }

  void writeTo(File confDir) throws IOException {
    if (!confDir.isDirectory() && !confDir.mkdirs()) {
      throw new IOException("cannot create configuration directory " + confDir);
    }
    Configuration defaults = new JobConf(new YarnConfiguration(new HdfsConfiguration()));
    Configuration core = new Configuration(false);
    Configuration hdfs = new Configuration(false);
    Configuration yarn = new Configuration(false);
    Configuration mapred = new Configuration(false);
    for (Map.Entry<String, String> entry : source) {
      String key = entry.getKey();
      String value = source.getRaw(key);
      if (value == null || value.equals(defaults.getRaw(key))) {
        continue;
      }
      Configuration target = key.startsWith("dfs.") ? hdfs
          : key.startsWith("yarn.") ? yarn
          : key.startsWith("mapreduce.") || key.startsWith("mapred.") ? mapred
          : core;
      target.set(key, value);
    }
    write(core, new File(confDir, "core-site.xml"));
    write(hdfs, new File(confDir, "hdfs-site.xml"));
    write(yarn, new File(confDir, "yarn-site.xml"));
    write(mapred, new File(confDir, "mapred-site.xml"));
  }

  private static void write(Configuration conf, File file) throws IOException {
    try (OutputStream out = new FileOutputStream(file)) {
      conf.writeXml(out);
    }
  }
}
