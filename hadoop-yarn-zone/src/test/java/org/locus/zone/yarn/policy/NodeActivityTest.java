package org.locus.zone.yarn.policy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.Test;

class NodeActivityTest {

  private final ApplicationId a = ApplicationId.newInstance(1, 1);
  private final ApplicationId b = ApplicationId.newInstance(1, 2);
  private final NodeActivity node = new NodeActivity();

  @Test
  void onlyAStartOnAnIdleNodeMaySwitch() {
    assertTrue(node.start(a));
    assertFalse(node.start(b));
    assertFalse(node.start(a), "a second start of a known application");
  }

  @Test
  void onlyTheLastStopMayRelease() {
    node.start(a);
    node.start(b);
    assertFalse(node.stop(a));
    assertTrue(node.stop(b));
    assertTrue(node.isIdle());
  }

  @Test
  void theStopOfAnApplicationNeverStartedHereDoesNothing() {
    assertFalse(node.stop(a));
    node.start(a);
    assertFalse(node.stop(b));
    assertFalse(node.isIdle());
  }
}
