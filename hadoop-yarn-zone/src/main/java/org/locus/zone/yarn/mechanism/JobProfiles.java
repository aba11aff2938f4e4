package org.locus.zone.yarn.mechanism;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a job's measured disk-usage profile lives: {@code DIR/NAME.profile}, NAME being the
 * application name with every character other than letters, digits, '.', '_' and '-'
 * written as '_' (so a name cannot reach outside the directory).
 */
public final class JobProfiles {

  private final Path dir;

  public JobProfiles(Path dir) {
    this.dir = dir;
  }

  /** The profile file of this application name, or null if there is none. */
  public Path profileOf(String applicationName) {
    Path profile = pathFor(applicationName);
    return profile != null && Files.isRegularFile(profile) ? profile : null;
  }

  /** Where the profile of this name is (to be) stored; null for no name. */
  public Path pathFor(String applicationName) {
    if (applicationName == null || applicationName.isEmpty()) {
      return null;
    }
    String file = applicationName.replaceAll("[^A-Za-z0-9._-]", "_") + ".profile";
    if (file.startsWith(".")) {
      file = "_" + file.substring(1);
    }
    return dir.resolve(file);
  }
}
