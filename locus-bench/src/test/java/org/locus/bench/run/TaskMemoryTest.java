package org.locus.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TaskMemoryTest {
  private static final long MIB = 1L << 20;

  @Test
  void setsEachGivenContainerWithAHeapOfThreeQuartersAndKeepsTheOtherJvmOptions() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.map.java.opts", "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    conf.set("yarn.app.mapreduce.am.command-opts", "-XX:+UseSerialGC -Xmx384m");
    new TaskMemory(768 * MIB, 256 * MIB).applyTo(conf);
    assertEquals("768", conf.get("mapreduce.map.memory.mb"));
    assertEquals("-Xmx576m -XX:+UseSerialGC -XX:TieredStopAtLevel=1",
        conf.get("mapreduce.map.java.opts"));
    assertEquals("256", conf.get("yarn.app.mapreduce.am.resource.mb"));
    assertEquals("-Xmx192m -XX:+UseSerialGC", conf.get("yarn.app.mapreduce.am.command-opts"));
  }

  @Test
  void zeroLeavesTheClustersSettingAlone() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.map.memory.mb", "512");
    new TaskMemory(0, 512 * MIB).applyTo(conf);
    assertEquals("512", conf.get("mapreduce.map.memory.mb"));
    assertNull(conf.get("mapreduce.map.java.opts"));
    assertEquals("-Xmx384m", conf.get("yarn.app.mapreduce.am.command-opts"));
    assertEquals("map the cluster's default, AM 512 MiB", new TaskMemory(0, 512 * MIB).describe());
  }

  @Test
  void refusesSizesNoContainerCanHaveNamingTheOption() {
    IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
        () -> new TaskMemory(128 * MIB, 0));
    assertTrue(small.getMessage().startsWith("--map-memory needs at least 256m"),
        small.getMessage());
    IllegalArgumentException rounded = assertThrows(IllegalArgumentException.class,
        () -> new TaskMemory(640 * MIB, 0));
    assertEquals("--map-memory 640m is not a multiple of 256m: YARN rounds container requests"
        + " up to one (yarn.scheduler.minimum-allocation-mb), so the task would get 768m; ask"
        + " for 512m or 768m", rounded.getMessage());
    IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
        () -> new TaskMemory(512 * MIB, 1024 * MIB).checkFits(768 * MIB));
    assertEquals("--am-memory 1024m but a node offers its containers 768 MiB (--node-memory"
        + " less its daemons')", big.getMessage());
    new TaskMemory(512 * MIB, 768 * MIB).checkFits(768 * MIB);
  }

  @Test
  void saysHowManyMapsRunOnANodeAndBesideTheAm() {
    assertEquals("1 map at a time per node, 1 beside the AM",
        new TaskMemory(768 * MIB, 512 * MIB).mapsPerNode(1280 * MIB));
    assertEquals("1 map at a time per node, 0 beside the AM",
        new TaskMemory(768 * MIB, 512 * MIB).mapsPerNode(1024 * MIB));
    assertEquals("2 maps at a time per node, 1 beside the AM",
        new TaskMemory(0, 0).mapsPerNode(1024 * MIB));
  }
}
