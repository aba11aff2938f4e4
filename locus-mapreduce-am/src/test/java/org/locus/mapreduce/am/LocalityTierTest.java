package org.locus.mapreduce.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.junit.jupiter.api.Test;

/** A locality tier's job counter: named as the tier, in the one group of the Locus AM's tiers. */
class LocalityTierTest {
  @Test
  void aTiersCounterIsNamedForTheTierInTheTierGroup() {
    Counters counters = new Counters();
    new LocalityTier("superlocal", -1).counterIn(counters).increment(3);
    new LocalityTier("backup-local", 1).counterIn(counters).increment(2);

    CounterGroup group = counters.getGroup(LocalityTier.COUNTER_GROUP);
    assertEquals(3, group.findCounter("superlocal").getValue());
    assertEquals(2, group.findCounter("backup-local").getValue());
    assertEquals(2, group.size());
    assertEquals("Locus Locality Tiers", group.getDisplayName());
  }

  @Test
  void aJobThatCountedNoMapAtATierReadsZero() {
    assertEquals(0, new LocalityTier("superlocal", -1).counterIn(new Counters()).getValue());
  }

  @Test
  void aTierWithoutANameIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new LocalityTier(" ", 1));
    assertTrue(e.getMessage().contains("needs a name"), e.getMessage());
  }
}
