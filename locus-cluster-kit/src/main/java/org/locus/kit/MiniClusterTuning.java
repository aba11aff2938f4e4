package org.locus.kit;

import org.apache.hadoop.conf.Configuration;

/**
 * Settings that make an embedded cluster start, react and stop quickly on a small machine
 * (2 cores), without changing what the cluster decides. None of them selects a Locus class.
 *
 * <p>The kit applies these first and the caller's own keys on top, so a caller's setting wins.
 */
final class MiniClusterTuning {
  private MiniClusterTuning() {
  }

  static void apply(Configuration conf, int nodeManagerMemoryMb) {
    // HDFS: fast heartbeats and re-replication; a dead DataNode is noticed in ~20 s.
    conf.set("dfs.heartbeat.interval", "1");
    conf.set("dfs.namenode.heartbeat.recheck-interval", "5000");
    conf.set("dfs.namenode.redundancy.interval.seconds", "1");
    conf.set("dfs.namenode.safemode.extension", "0");
    conf.set("dfs.namenode.reconstruction.pending.timeout-sec", "10");
    // Small data in many blocks is how a tiny cluster shows placement: allow blocks of 64 KiB.
    conf.set("dfs.namenode.fs-limits.min-block-size", "65536");

    // YARN: frequent node and AM heartbeats so containers are handed out without idle seconds.
    conf.set("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "250");
    conf.set("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", "250");
    conf.set("yarn.nodemanager.sleep-delay-before-sigkill.ms", "100");
    conf.set("yarn.nodemanager.process-kill-wait.ms", "100");
    conf.set("yarn.nodemanager.delete.debug-delay-sec", "0");
    conf.set("yarn.minicluster.nm.pmem-mb", Integer.toString(nodeManagerMemoryMb));
    conf.set("yarn.scheduler.minimum-allocation-mb", "256");

    // MapReduce: small task JVMs that start fast (client compiler only, serial GC).
    String taskOpts = "-Xmx300m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    conf.set("mapreduce.map.memory.mb", "512");
    conf.set("mapreduce.reduce.memory.mb", "512");
    conf.set("mapreduce.map.java.opts", taskOpts);
    conf.set("mapreduce.reduce.java.opts", taskOpts);
    conf.set("yarn.app.mapreduce.am.resource.mb", "512");
    conf.set("yarn.app.mapreduce.am.command-opts", taskOpts);
    conf.set("mapreduce.task.io.sort.mb", "32");
    conf.set("mapreduce.job.reduce.slowstart.completedmaps", "0.8");
    conf.set("mapreduce.client.progressmonitor.pollinterval", "250");
    conf.set("mapreduce.client.completion.pollinterval", "250");
    // Job jars and splits are written with replication 10 by default; a small cluster can only
    // hold a few, and the NameNode warns about every file it cannot fully replicate.
    conf.set("mapreduce.client.submit.file.replication", "2");
  }
}
