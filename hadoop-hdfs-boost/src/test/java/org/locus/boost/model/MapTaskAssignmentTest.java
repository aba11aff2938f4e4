package org.locus.boost.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Invariants and known limits of the simulation rules; about 2 s in all. */
class MapTaskAssignmentTest {

  @Test
  void replicaLayoutPutsCopiesOnDistinctServers() {
    ReplicaLayout layout = ReplicaLayout.random(5, 400, 3, new Random(7));
    for (int b = 0; b < layout.blocks(); b++) {
      assertTrue(layout.holder(b, 0) != layout.holder(b, 1)
          && layout.holder(b, 1) != layout.holder(b, 2)
          && layout.holder(b, 0) != layout.holder(b, 2), "block " + b);
    }
    long held = 0;
    for (int s = 0; s < layout.servers(); s++) {
      held += layout.heldCount(s);
    }
    assertEquals(1200, held);
  }

  @Test
  void greedyRunsEveryBlockExactlyOnce() {
    ReplicaLayout layout = ReplicaLayout.random(20, 20 * 30, 2, new Random(3));
    TaskShares shares = GreedyLocalFirstScheduler.assign(layout, 3, true, new Random(4));
    assertEquals(600, shares.total());
  }

  @Test
  void copiesOnEveryServerLeaveNoRemoteTask() {
    MapTaskAssignment simulation = new MapTaskAssignment(4, 25, 1, 3, 11);
    for (AssignmentRule rule : new AssignmentRule[] {AssignmentRule.GREEDY,
        AssignmentRule.MATCHING, AssignmentRule.SHORTFALL}) {
      assertEquals(0.0, simulation.remoteFraction(rule, 4), rule.word());
    }
  }

  @Test
  void designatedCopyIgnoresTheOtherCopiesEvenOnEveryServer() {
    // The appendix's "served by a random copy" step does not use locality, so extra copies do
    // not help it: that is why it is not a model of a local-first scheduler.
    assertTrue(new MapTaskAssignment(4, 25, 1, 3, 11)
        .remoteFraction(AssignmentRule.DESIGNATED, 4) > 0);
  }

  @Test
  void oneServerRunsEverythingLocally() {
    assertEquals(0.0, new MapTaskAssignment(1, 40, 2, 1, 5)
        .remoteFraction(AssignmentRule.GREEDY, 1));
  }

  @Test
  void sameSeedGivesTheSameEstimate() {
    MapTaskAssignment a = new MapTaskAssignment(50, 32, 2, 2, 42);
    MapTaskAssignment b = new MapTaskAssignment(50, 32, 2, 2, 42);
    assertEquals(a.remoteFraction(AssignmentRule.GREEDY, 2),
        b.remoteFraction(AssignmentRule.GREEDY, 2));
  }

  @Test
  void shortfallRuleReproducesTheClosedFormOnManyServers() {
    // Eq. A.1 on sampled layouts converges to Eq. 4.2 (within the CLT and 1 - 1/n terms).
    double simulated = new MapTaskAssignment(2000, 100, 1, 1, 9)
        .remoteFraction(AssignmentRule.SHORTFALL, 2);
    assertEquals(RemoteTaskFraction.closedForm(100, 2), simulated, 0.002);
  }

  @Test
  void bestMatchingWithOneCopyEqualsTheShortfall() {
    MapTaskAssignment simulation = new MapTaskAssignment(100, 50, 1, 2, 13);
    assertEquals(simulation.remoteFraction(AssignmentRule.SHORTFALL, 1),
        simulation.remoteFraction(AssignmentRule.MATCHING, 1), 1e-12);
  }

  @Test
  void bestMatchingIsNeverWorseThanGreedyOrDesignated() {
    MapTaskAssignment simulation = new MapTaskAssignment(40, 32, 1, 2, 17);
    double best = simulation.remoteFraction(AssignmentRule.MATCHING, 2);
    assertTrue(best <= simulation.remoteFraction(AssignmentRule.GREEDY, 2));
    assertTrue(best <= simulation.remoteFraction(AssignmentRule.DESIGNATED, 2));
  }

  @Test
  void greedyWithOneCopyIsAtLeastTheStaticLowerBound() {
    // With one copy no schedule beats the shortfall of a perfectly balanced one.
    MapTaskAssignment simulation = new MapTaskAssignment(200, 50, 1, 2, 19);
    assertTrue(simulation.remoteFraction(AssignmentRule.GREEDY, 1)
        >= simulation.remoteFraction(AssignmentRule.MATCHING, 1));
  }

  @Test
  void superlocalLevelOnlyReordersLocalWork() {
    MapTaskAssignment simulation = new MapTaskAssignment(30, 40, 1, 2, 23);
    TaskShares plain = simulation.greedyShares(2, false);
    TaskShares boosted = simulation.greedyShares(2, true);
    assertEquals(0, plain.superlocal());
    assertTrue(boosted.superlocal() > boosted.local());
    assertEquals(plain.total(), boosted.total());
  }

  @Test
  void comparingEveryServerSpreadsTheReplicatedCopiesEvenlyAndKeepsCopiesDistinct() {
    ReplicaLayout layout = ReplicaLayout.spread(5, 37, 2, 5, new Random(29));
    int[] replicated = new int[5];
    for (int b = 0; b < layout.blocks(); b++) {
      replicated[layout.holder(b, 0)]++;
      assertTrue(layout.holder(b, 0) != layout.holder(b, 1), "block " + b);
    }
    int most = Arrays.stream(replicated).max().getAsInt();
    int least = Arrays.stream(replicated).min().getAsInt();
    assertTrue(most - least <= 1, Arrays.toString(replicated));
  }

  @Test
  void spreadReplicatedCopiesRunMoreTasksSuperlocal() {
    // Five servers, two blocks each: random placement leaves some servers several REPLICATED
    // copies that their one slot cannot all run.
    MapTaskAssignment simulation = new MapTaskAssignment(5, 2, 1, 2000, 31);
    double random = simulation.greedyShares(2, true, 1).superlocalFraction();
    double twoChoices = simulation.greedyShares(2, true, 2).superlocalFraction();
    assertTrue(twoChoices > random + 0.05, random + " vs " + twoChoices);
    assertEquals(simulation.greedyShares(2, true).superlocalFraction(), random, 1e-12);
  }

  @Test
  void perfectBalanceNeedsWholeBlocksPerServer() {
    ReplicaLayout layout = ReplicaLayout.random(3, 10, 1, new Random(1));
    assertThrows(IllegalArgumentException.class,
        () -> StaticBalanceAssignment.bestMatching(layout));
  }

  @Test
  void moreCopiesThanServersIsRejected() {
    assertThrows(IllegalArgumentException.class,
        () -> ReplicaLayout.random(2, 10, 3, new Random(1)));
  }
}
