package org.locus.zone.yarn.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobProfilesTest {

  @TempDir
  Path dir;

  @Test
  void theProfileIsNamedAfterTheApplication() throws IOException {
    Path p = Files.writeString(dir.resolve("terasort-1g.profile"), "0 1\n");
    assertEquals(p, new JobProfiles(dir).profileOf("terasort-1g"));
  }

  @Test
  void aNameCannotReachOutsideTheDirectory() throws IOException {
    Files.writeString(dir.resolve(".._x.profile"), "0 1\n");
    Path p = Files.writeString(dir.resolve("_._x.profile"), "0 1\n");
    assertEquals(p, new JobProfiles(dir).profileOf("../x"));
  }

  @Test
  void noProfileOrNoNameGivesNone() {
    assertNull(new JobProfiles(dir).profileOf("pi"));
    assertNull(new JobProfiles(dir).profileOf(null));
  }
}
