package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Where a cluster with {@code --daemon-users} may live: the privileged helper refuses mount
 * points below a directory anyone but root may write, so {@code up} refuses such a directory
 * first, naming it.
 */
class DaemonUsersTest {
  @Test
  void aDirectoryBelowAWorldWritableOneIsRefusedByName() throws Exception {
    assertEquals("/tmp is writable by its group or by others",
        DaemonUsers.unsafeDirectory(Path.of("/tmp/locus/cluster")));
  }

  @Test
  void rootOnlyDirectoriesAreAccepted() throws Exception {
    assertNull(DaemonUsers.unsafeDirectory(Path.of("/usr/lib/not-made-yet/cluster")),
        "/, /usr and /usr/lib are root's, mode 0755; what does not exist yet up makes");
  }

  @Test
  void eachDaemonDropsToItsAccountWithGroupHadoopAndItsGroups() {
    assertEquals(List.of("setpriv", "--reuid=yarn", "--regid=hadoop", "--init-groups", "--",
        "java", "-version"), DaemonUsers.as("yarn", List.of("java", "-version")));
  }
}
