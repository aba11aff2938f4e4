package org.locus.bench.gears;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The gear bench's configurations of seed 004 Table 1, as {@code --configs} names them. */
class GearBenchConfigTest {
  @Test
  void tableOnesConfigurationsRunWhereTheirMetadataLives() {
    List<GearBenchConfig> configs = GearBenchConfig.parse("normal, sss,sbs,sbb,fbb,sbb");
    assertEquals(List.of("normal", "sss", "sbs", "sbb", "fbb"),
        configs.stream().map(GearBenchConfig::name).toList(), "in order, each once");
    GearBenchConfig normal = configs.get(0);
    assertFalse(normal.coupled());
    assertFalse(normal.indexed());
    for (GearBenchConfig sdp : configs.subList(1, 4)) {
      assertTrue(sdp.coupled(), sdp.name());
      assertFalse(sdp.indexed(), sdp.name());
    }
    GearBenchConfig fbb = configs.get(4);
    assertTrue(fbb.coupled() && fbb.indexed());
    assertEquals("batch", fbb.issuance());
    assertEquals("batch", fbb.transfer());
    GearBenchConfig sbb = configs.get(3);
    assertEquals(sbb.knobs(), fbb.knobs(), "FBB differs from SBB only in its metadata");
  }

  @Test
  void anUnknownNameIsRefusedWithTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GearBenchConfig.parse("sbb,fbs"));
    assertTrue(e.getMessage().contains("'fbs'") && e.getMessage().contains("fbb"),
        e.getMessage());
  }
}
