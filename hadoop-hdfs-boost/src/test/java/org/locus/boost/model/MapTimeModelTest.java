package org.locus.boost.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MapTimeModelTest {

  @Test
  void allLocalHdfsRunTakesUnitTime() {
    assertEquals(1.0, MapTimeModel.hdfs(0, 3.0), 1e-15);
  }

  @Test
  void remoteTasksCostTheirSlowdown() {
    assertEquals(0.9 + 0.1 * 2.0, MapTimeModel.hdfs(0.1, 2.0), 1e-15);
  }

  @Test
  void boostTermsAreSuperlocalLocalAndRemote() {
    // Eq. 4.3: (1 - rho1)/s_sl + (rho1 - rho_r) + rho_r * s_remote
    double rho1 = 0.04;
    double rhoR = 0.01;
    assertEquals((1 - rho1) / 1.5 + (rho1 - rhoR) + rhoR * 2.0,
        MapTimeModel.boost(1 - rho1, rhoR, 1.5, 2.0), 1e-15);
  }

  @Test
  void capacityOverheadAtTenfoldHeadroomAndThreeCopiesIsAboutThreePercent() {
    assertEquals(1.0 / 30, MapTimeModel.capacityOverhead(10, 3), 1e-15);
  }

  @Test
  void sharesAboveOneAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> MapTimeModel.boost(0.9, 0.2, 1.5, 2.0));
  }
}
