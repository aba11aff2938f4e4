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
    new TaskMemory(640 * MIB, 384 * MIB).applyTo(conf);
    assertEquals("640", conf.get("mapreduce.map.memory.mb"));
    assertEquals("-Xmx480m -XX:+UseSerialGC -XX:TieredStopAtLevel=1",
        conf.get("mapreduce.map.java.opts"));
    assertEquals("384", conf.get("yarn.app.mapreduce.am.resource.mb"));
    assertEquals("-Xmx288m -XX:+UseSerialGC", conf.get("yarn.app.mapreduce.am.command-opts"));
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
    assertTrue(small.getMessage().startsWith("--map-memory needs whole MiB of at least 256m"),
        small.getMessage());
    IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
        () -> new TaskMemory(512 * MIB, 1024 * MIB).checkFits(768 * MIB));
    assertEquals("--am-memory 1024m but a node offers its containers 768 MiB (--node-memory"
        + " less its daemons')", big.getMessage());
    new TaskMemory(512 * MIB, 768 * MIB).checkFits(768 * MIB);
  }
}
