package org.locus.boost.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RemoteTaskFractionTest {

  @Test
  void closedFormForOneCopyIsEquationFourOne() {
    assertEquals(1 / Math.sqrt(2 * Math.PI * 100), RemoteTaskFraction.closedForm(100, 1), 1e-15);
  }

  @Test
  void closedFormShrinksWithTheSquareRootOfCopies() {
    assertEquals(RemoteTaskFraction.closedForm(50, 1) / 2, RemoteTaskFraction.closedForm(50, 4),
        1e-15);
  }

  @Test
  void closedFormRejectsNoCopies() {
    assertThrows(IllegalArgumentException.class, () -> RemoteTaskFraction.closedForm(50, 0));
  }
}
