package org.locus.cli.kat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.locus.bench.run.LinkBytes;
import org.locus.bench.run.RunningNetnsCluster;
import org.locus.cli.ClientConfiguration;
import org.locus.cli.Console;
import org.locus.cli.Locus;

/**
 * {@link KatBenchCluster} on a netns cluster: brought up and down with the same
 * {@code locus cluster up --netns} an operator types (stock daemons, site files,
 * {@code --feature kat}, the dist bundle), every node's link shaped to {@code --link}; the wire
 * bytes are the nodes' veth counters.
 */
final class NetnsKatBenchCluster implements KatBenchCluster {
  private final File dir;
  private final int nodes;
  private final String link;
  private final String nodeMemory;
  private final Console console;
  private final Configuration conf;
  /** The same cluster seen by the bench runner: its workers' link counters. */
  private final RunningNetnsCluster links;
  private DistributedFileSystem fs;

  NetnsKatBenchCluster(File dir, int nodes, String link, String nodeMemory,
      long blockBytes, Console console)
      throws IOException {
    this.dir = dir;
    this.nodes = nodes;
    this.link = link;
    this.nodeMemory = nodeMemory;
    this.console = console;
    int code = new Locus().run(new String[] {"cluster", "up", "--netns", "--dir", dir.getPath(),
        "--nodes", Integer.toString(nodes), "--yarn", "--feature", "kat", "--link", link,
        "--node-memory", nodeMemory, "--disk-size", "2g",
        "--conf", "dfs.blocksize=" + blockBytes,
        "--conf", "dfs.replication=2"}, new Console(console.err(), console.err()));
    if (code != 0) {
      down();
      throw new IOException("the netns cluster for the bench did not start (exit " + code
          + "); see " + new File(dir, "logs"));
    }
    try {
      this.conf = ClientConfiguration.load(dir.getPath());
    } catch (Exception e) {
      down();
      throw new IOException("cannot read the netns cluster's client configuration in " + dir
          + ": " + e.getMessage(), e);
    }
    this.links = new RunningNetnsCluster(conf, dir, nodes);
  }

  @Override
  public Configuration conf() {
    return conf;
  }

  @Override
  public synchronized DistributedFileSystem fs() throws IOException {
    if (fs == null) {
      fs = (DistributedFileSystem) FileSystem.newInstance(conf);
    }
    return fs;
  }

  @Override
  public String describe() {
    return "netns cluster of " + nodes + " nodes (stock Hadoop 3.5.0 daemons as separate"
        + " processes, one network namespace per node, YARN, `--feature kat`), " + nodeMemory
        + " of memory per node (`--node-memory`), every node's link shaped to " + link
        + " each way";
  }

  @Override
  public long workerBytesSent() throws IOException {
    return links.linkBytes().values().stream().mapToLong(LinkBytes::sent).sum();
  }

  @Override
  public void close() throws IOException {
    try {
      if (fs != null) {
        fs.close();
      }
    } finally {
      down();
    }
  }

  private void down() {
    ByteArrayOutputStream quiet = new ByteArrayOutputStream();
    PrintStream sink = new PrintStream(quiet, true, StandardCharsets.UTF_8);
    int code = new Locus().run(new String[] {"cluster", "down", "--dir", dir.getPath()},
        new Console(sink, sink));
    if (code != 0) {
      console.err().print(quiet.toString(StandardCharsets.UTF_8));
    }
  }
}
