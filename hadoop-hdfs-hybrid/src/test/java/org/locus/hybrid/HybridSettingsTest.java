package org.locus.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The profile's keys: defaults, parsing, and errors that name the key. */
class HybridSettingsTest {

  @Test
  void defaultsAreAllSsdUnderSlashHybrid() {
    HybridSettings s = HybridSettings.from(new Configuration(false));
    assertEquals(List.of(new Path("/hybrid")), s.ssdPaths());
    assertEquals("ALL_SSD", s.ssdPolicy());
  }

  @Test
  void pathsAreAListAndOnlyTheirSubtreesCountAsSsd() {
    Configuration conf = new Configuration(false);
    conf.set(HybridConfigKeys.SSD_PATHS, " /in , /out/jobs ,/in");
    conf.set(HybridConfigKeys.SSD_POLICY, "one_ssd");
    HybridSettings s = HybridSettings.from(conf);
    assertEquals(List.of(new Path("/in"), new Path("/out/jobs")), s.ssdPaths());
    assertEquals("ONE_SSD", s.ssdPolicy());
    assertTrue(s.onSsd(new Path("/in")));
    assertTrue(s.onSsd(new Path("hdfs://nn:8020/in/part-0")));
    assertTrue(s.onSsd(new Path("/out/jobs/a/b")));
    assertFalse(s.onSsd(new Path("/input")), "a sibling whose name starts the same");
    assertFalse(s.onSsd(new Path("/out")));
  }

  @Test
  void aPolicyThatIsNotAnSsdLayoutIsRefusedNamingTheKeyAndTheChoices() {
    Configuration conf = new Configuration(false);
    conf.set(HybridConfigKeys.SSD_POLICY, "HOT");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HybridSettings.from(conf));
    assertEquals("locus.hybrid.ssd.policy = 'HOT': expected one of [ALL_SSD, ONE_SSD]",
        e.getMessage());
  }

  @Test
  void aRelativeOrQualifiedPathIsRefusedNamingTheKey() {
    // "a:b" is not a URI at all: Path threw a URISyntaxException without the key (locus-fuzz)
    for (String bad : new String[] {"hybrid", "hdfs://nn:8020/hybrid", "a:b"}) {
      Configuration conf = new Configuration(false);
      conf.set(HybridConfigKeys.SSD_PATHS, bad);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> HybridSettings.from(conf));
      assertTrue(e.getMessage().startsWith("locus.hybrid.ssd.paths: '" + bad + "'"),
          e.getMessage());
    }
  }
}
