package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The argument vector of a daemon when the cluster runs its daemons as their own users. */
class DaemonLauncherUsersTest {
  private static final List<String> JAVA = List.of("java", "Main");

  private static List<String> tail(List<String> argv) {
    return argv.subList(argv.indexOf("--") + 1, argv.size());
  }

  @Test
  void eachRoleDropsToItsAccountAfterJoiningTheNodesNamespace() {
    ClusterLayout layout = new ClusterLayout(new File("/srv/c1"));
    DaemonLauncher launcher = new DaemonLauncher(layout, new NoGroups(), true);
    List<String> argv = tail(launcher.inNode("node1", DaemonRole.DATANODE, JAVA));
    assertEquals(List.of("ip", "netns", "exec", layout.namespace("node1"), "setpriv",
        "--reuid=hdfs", "--regid=hadoop", "--init-groups", "--", "java", "Main"), argv);
    assertEquals("--reuid=yarn",
        tail(launcher.inNode("node1", DaemonRole.NODEMANAGER, JAVA)).get(5));
    assertEquals("--reuid=yarn",
        tail(launcher.inNode("master", DaemonRole.RESOURCEMANAGER, JAVA)).get(5));
    assertEquals("--reuid=mapred",
        tail(launcher.inNode("master", DaemonRole.HISTORYSERVER, JAVA)).get(5));
    assertEquals("--reuid=hdfs",
        tail(launcher.inNode("master", DaemonRole.NAMENODE, JAVA)).get(5));
  }

  @Test
  void withoutDaemonUsersTheDaemonRunsAsTheCaller() {
    ClusterLayout layout = new ClusterLayout(new File("/srv/c1"));
    DaemonLauncher launcher = new DaemonLauncher(layout, new NoGroups());
    assertEquals(List.of("ip", "netns", "exec", layout.namespace("node1"), "java", "Main"),
        tail(launcher.inNode("node1", DaemonRole.DATANODE, JAVA)));
  }

  /** A host whose cgroups the launcher joins none of (the vector's tail is what is tested). */
  private static final class NoGroups extends NodeCgroup {
    NoGroups() {
      super(new ClusterLayout(new File("/srv/c1")), new ResourceLedger(new File("/dev/null")));
    }

    @Override
    public int version() {
      return 2;
    }

    @Override
    public void create(String node, long memoryBytes) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void throttle(String node, String majorMinor, long readBps, long writeBps) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void limitCpu(String node, double cpus) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<File> procsFiles(String node) {
      return List.of();
    }

    @Override
    public long oomKills(String node) {
      return 0;
    }

    @Override
    public List<File> clusterGroups() {
      return List.of();
    }
  }
}
