package org.locus.kit;

import org.apache.hadoop.conf.Configuration;

/**
 * The settings that make a small test cluster start, notice failures and hand out containers
 * within seconds on a 2-core machine, without changing what the cluster decides (none selects a
 * Locus class). One place for both clusters: the embedded one applies them under the caller's
 * keys ({@link LocusMiniCluster}), the netns one writes them into its site files
 * ({@code org.locus.netns.SiteConfiguration}), each adding only what is its own.
 */
public final class SmallClusterTuning {
  /** YARN's smallest allocation: the scheduler rounds every container request up to it. */
  public static final int MIN_ALLOCATION_MIB = 256;
  /** The map, reduce and MapReduce AM container a job gets unless it asks for another. */
  public static final int TASK_CONTAINER_MIB = 512;

  private SmallClusterTuning() {
  }

  /**
   * HDFS: heartbeats every second, a dead DataNode noticed in about 20 s and its blocks
   * re-replicated at once, no safe-mode extension; blocks as small as 64 KiB, so small data in
   * many blocks shows placement.
   */
  public static void hdfs(Configuration conf) {
    conf.set("dfs.heartbeat.interval", "1");
    conf.set("dfs.namenode.heartbeat.recheck-interval", "5000");
    conf.set("dfs.namenode.redundancy.interval.seconds", "1");
    conf.set("dfs.namenode.safemode.extension", "0");
    conf.set("dfs.namenode.fs-limits.min-block-size", "65536");
  }

  /** YARN: node and AM heartbeats every 250 ms, containers killed without grace periods. */
  public static void yarn(Configuration conf) {
    conf.set("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "250");
    conf.set("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", "250");
    conf.set("yarn.nodemanager.sleep-delay-before-sigkill.ms", "100");
    conf.set("yarn.nodemanager.process-kill-wait.ms", "100");
    conf.set("yarn.nodemanager.delete.debug-delay-sec", "0");
    conf.set("yarn.scheduler.minimum-allocation-mb", Integer.toString(MIN_ALLOCATION_MIB));
  }

  /**
   * MapReduce: {@value #TASK_CONTAINER_MIB} MiB containers whose JVMs start fast (client
   * compiler only, serial GC), small sort buffers, client polls every 250 ms, and job files
   * written with {@code submitReplication} copies (stock: 10, which a small cluster cannot hold).
   *
   * @param taskHeapMib each task JVM's heap, below the container size
   */
  public static void mapReduce(Configuration conf, int taskHeapMib, int submitReplication) {
    String taskOpts = "-Xmx" + taskHeapMib + "m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    String container = Integer.toString(TASK_CONTAINER_MIB);
    conf.set("mapreduce.map.memory.mb", container);
    conf.set("mapreduce.reduce.memory.mb", container);
    conf.set("mapreduce.map.java.opts", taskOpts);
    conf.set("mapreduce.reduce.java.opts", taskOpts);
    conf.set("yarn.app.mapreduce.am.resource.mb", container);
    conf.set("yarn.app.mapreduce.am.command-opts", taskOpts);
    conf.set("mapreduce.task.io.sort.mb", "32");
    conf.set("mapreduce.client.progressmonitor.pollinterval", "250");
    conf.set("mapreduce.client.completion.pollinterval", "250");
    conf.set("mapreduce.client.submit.file.replication", Integer.toString(submitReplication));
  }
}
