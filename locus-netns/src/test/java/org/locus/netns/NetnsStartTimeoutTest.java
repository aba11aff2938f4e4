package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NetnsStartTimeoutTest {
  @Test
  void uncappedAndQuarterCoreNodesGetTheBaseWait() {
    assertEquals(300, NetnsStartTimeout.seconds(0));
    assertEquals(300, NetnsStartTimeout.seconds(0.25));
    assertEquals(300, NetnsStartTimeout.seconds(2));
  }

  @Test
  void nodesCappedBelowAQuarterCoreWaitInProportion() {
    assertEquals(600, NetnsStartTimeout.seconds(0.125));
    assertEquals(7500, NetnsStartTimeout.seconds(NodeCpus.MIN_CORES));
  }
}
