package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code --node-cpus} as typed, and the cgroup quota it becomes. */
class NodeCpusTest {
  @Test
  void coresParseFormatAndBecomeAQuotaPerPeriod() {
    assertEquals(0, NodeCpus.parse("node-cpus", "none"));
    assertEquals(0.5, NodeCpus.parse("node-cpus", "0.5"));
    assertEquals(0.25, NodeCpus.parse("node-cpus", ".25"));
    assertEquals(2, NodeCpus.parse("node-cpus", " 2 "));
    assertEquals("0.5", NodeCpus.format(0.5));
    assertEquals("2", NodeCpus.format(2.0));
    assertEquals("none", NodeCpus.format(0));
    assertEquals(50_000, NodeCgroup.cpuQuotaMicros(0.5));
    assertEquals(150_000, NodeCgroup.cpuQuotaMicros(1.5));
    assertEquals(1_000, NodeCgroup.cpuQuotaMicros(0.01));
  }

  @Test
  void anythingElseIsRefusedNamingTheOptionAndTheForms() {
    for (String bad : new String[] {"0", "0.001", "-1", "half", "50%", "1e3", ""}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> NodeCpus.parse("node-cpus", bad), bad);
      assertTrue(e.getMessage().contains("--node-cpus") && e.getMessage().contains("'" + bad
          + "'") && e.getMessage().contains("e.g. 0.5"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> NodeCgroup.cpuQuotaMicros(0));
    assertThrows(IllegalArgumentException.class, () -> NodeCgroup.cpuQuotaMicros(Double.NaN));
  }
}
