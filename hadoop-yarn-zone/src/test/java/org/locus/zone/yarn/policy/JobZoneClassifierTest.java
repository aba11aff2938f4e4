package org.locus.zone.yarn.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JobZoneClassifierTest {

  private static final String KEY = "locus.zone.job-classes";

  private static JobZoneClassifier of(ZoneClass dflt, String... entries) {
    return JobZoneClassifier.fromEntries(entries, dflt, KEY);
  }

  @Test
  void theFirstMatchingRegexDecides() {
    JobZoneClassifier c = of(ZoneClass.PERM, "^terasort=temp", "sort=perm", "sort=temp");
    assertEquals(ZoneClass.TEMP, c.classify("terasort-1g"));
    assertEquals(ZoneClass.PERM, c.classify("my sort job"));
  }

  @Test
  void aRegexIsFoundAnywhereUnlessAnchored() {
    JobZoneClassifier c = of(ZoneClass.PERM, "shuffle=temp", "^join=temp");
    assertEquals(ZoneClass.TEMP, c.classify("big-shuffle-7"));
    assertEquals(ZoneClass.PERM, c.classify("self-join"));
  }

  @Test
  void anUnknownOrMissingNameGetsTheDefaultClass() {
    JobZoneClassifier c = of(ZoneClass.TEMP, "^teragen=perm");
    assertEquals(ZoneClass.TEMP, c.classify("pi"));
    assertEquals(ZoneClass.TEMP, c.classify(null));
  }

  @Test
  void theClassIsAfterTheLastEqualsSign() {
    JobZoneClassifier c = of(ZoneClass.PERM, "a=b=temp", " (?i)^WORD=temp ");
    assertEquals(ZoneClass.TEMP, c.classify("xa=by"));
    assertEquals(ZoneClass.TEMP, c.classify("wordcount"));
  }

  @Test
  void aBadEntryNamesTheKeyAndTheEntry() {
    IllegalArgumentException noClass =
        assertThrows(IllegalArgumentException.class, () -> of(ZoneClass.PERM, "terasort"));
    assertTrue(noClass.getMessage().contains(KEY + ": entry 'terasort'"), noClass.getMessage());
    IllegalArgumentException badClass =
        assertThrows(IllegalArgumentException.class, () -> of(ZoneClass.PERM, "x=hot"));
    assertTrue(badClass.getMessage().contains("expected temp or perm, got 'hot'"),
        badClass.getMessage());
    IllegalArgumentException badRegex =
        assertThrows(IllegalArgumentException.class, () -> of(ZoneClass.PERM, "(x=temp"));
    assertTrue(badRegex.getMessage().contains("bad regular expression"),
        badRegex.getMessage());
  }
}
