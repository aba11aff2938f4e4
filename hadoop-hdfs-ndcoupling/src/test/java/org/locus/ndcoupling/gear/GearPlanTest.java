package org.locus.ndcoupling.gear;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/** The gear plan: cumulative groups, stand-ins, and the errors an operator sees. */
class GearPlanTest {
  @Test
  void gearsAreCumulativeGroupsAndGearZeroIsNeverOff() {
    GearPlan plan = GearPlan.parse("a,b; c ;d,e", "");
    assertEquals(2, plan.topGear());
    assertEquals(Set.of("a", "b"), plan.activeIn(0));
    assertEquals(Set.of("a", "b", "c"), plan.activeIn(1));
    assertEquals(Set.of("c", "d", "e"), plan.offIn(0));
    assertEquals(List.of("a", "b", "c", "d", "e"), plan.allHosts());
    assertEquals(2, plan.groupOf("e"));
    assertEquals(-1, plan.groupOf("z"));
  }

  @Test
  void standInsDefaultToGearZeroInTurnAndFollowTheChainWhileOff() {
    GearPlan plan = GearPlan.parse("a,b;c;d,e", "e=c");
    assertEquals("a", plan.standInFor("c", 0));
    assertEquals("b", plan.standInFor("d", 0));
    assertEquals("c", plan.standInFor("e", 1), "its own stand-in while that one is on");
    assertEquals("a", plan.standInFor("e", 0), "the stand-in's stand-in while both are off");
    assertEquals("e", plan.standInFor("e", 2), "a node stands in for itself while on");
  }

  @Test
  void coupledNodesAlternateAndEachOffNodeIsCoveredByTheNextOfTheRing() {
    List<String> ring = List.of("n1", "n2", "n3", "n4", "n5");
    GearPlan plan = GearPlan.parse(GearPlan.alternating(ring), GearPlan.ringStandIns(ring));
    assertEquals(Set.of("n1", "n3", "n5"), plan.activeIn(0));
    assertEquals("n3", plan.standInFor("n2", 0));
    assertEquals("n5", plan.standInFor("n4", 0));
    List<String> even = List.of("n1", "n2", "n3", "n4");
    assertEquals("n1", GearPlan.parse(GearPlan.alternating(even), GearPlan.ringStandIns(even))
        .standInFor("n4", 0), "the last node is covered by the first");
    for (int first = 0; first < ring.size(); first++) {
      String next = ring.get((first + 1) % ring.size());
      assertTrue(plan.groupOf(ring.get(first)) == 0 || plan.groupOf(next) == 0,
          "two consecutive nodes of the ring keep one in gear 0: " + ring.get(first) + next);
    }
  }

  @Test
  void halvesPutsTheFirstHalfInGearZero() {
    assertEquals("h1,h2;h3,h4", GearPlan.halves(List.of("h1", "h2", "h3", "h4")));
    assertEquals("h1,h2,h3;h4,h5", GearPlan.halves(List.of("h1", "h2", "h3", "h4", "h5")));
  }

  @Test
  void noPlanMeansGearsOff() {
    assertTrue(GearPlan.from(new Configuration(false)).isEmpty());
  }

  @Test
  void mistakesAreRefusedNamingTheKey() {
    assertRefused("a,b;a", "", NdCouplingConfigKeys.GEAR_PLAN, "named twice");
    assertRefused("a;;b", "", NdCouplingConfigKeys.GEAR_PLAN, "names no host");
    assertRefused("a;b;c", "b=c", NdCouplingConfigKeys.GEAR_STAND_INS, "lower gear group");
    assertRefused("a;b", "b=z", NdCouplingConfigKeys.GEAR_STAND_INS, "lower gear group");
    assertRefused("a;b", "a=b", NdCouplingConfigKeys.GEAR_STAND_INS, "not in a group");
    assertRefused("a;b", "b", NdCouplingConfigKeys.GEAR_STAND_INS, "not host=standIn");
    IllegalArgumentException level = assertThrows(IllegalArgumentException.class,
        () -> GearPlan.parse("a;b", "").activeIn(2));
    assertTrue(level.getMessage().contains("gears 0 to 1"), level.getMessage());
  }

  private static void assertRefused(String plan, String standIns, String key, String why) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GearPlan.parse(plan, standIns));
    assertTrue(e.getMessage().startsWith(key + ":"), e.getMessage());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }
}
