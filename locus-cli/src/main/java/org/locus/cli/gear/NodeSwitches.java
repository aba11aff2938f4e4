package org.locus.cli.gear;

import java.io.File;

import org.apache.hadoop.conf.Configuration;
import org.locus.bench.run.NetnsDataNodeSwitch;
import org.locus.bench.run.NetnsWholeNodeSwitch;
import org.locus.cli.command.LocusException;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.shift.CommandNodeSwitch;
import org.locus.ndcoupling.shift.NodeSwitch;

/** Which {@link NodeSwitch} a gear command uses for the cluster it was pointed at. */
final class NodeSwitches {
  private NodeSwitches() {
  }

  /**
   * @param confOption {@code --conf}, or null for {@code HADOOP_CONF_DIR}
   * @return the netns cluster's own switch (whole nodes when its partitions have metadata
   *     copies, else DataNodes) when the directory is (or holds the configuration of)
   *     a netns cluster; else the operator's commands from the configuration
   * @throws LocusException when neither applies, naming the keys to set
   */
  static NodeSwitch of(String confOption, Configuration conf)
      throws LocusException, java.io.IOException {
    String named = confOption != null ? confOption : System.getenv("HADOOP_CONF_DIR");
    if (named != null) {
      File dir = new File(named).getAbsoluteFile();
      for (File candidate : new File[] {dir, dir.getParentFile()}) {
        if (candidate != null) {
          NodeSwitch whole = NetnsWholeNodeSwitch.of(candidate);
          if (whole != null) {
            return whole;
          }
          NodeSwitch netns = NetnsDataNodeSwitch.of(candidate);
          if (netns != null) {
            return netns;
          }
        }
      }
    }
    try {
      CommandNodeSwitch commands = CommandNodeSwitch.from(conf);
      if (commands != null) {
        return commands;
      }
    } catch (IllegalArgumentException e) {
      throw new LocusException(e.getMessage());
    }
    throw new LocusException("no way to switch DataNodes off and on: this is not a netns"
        + " cluster directory, and " + NdCouplingConfigKeys.GEAR_STOP_COMMAND + " / "
        + NdCouplingConfigKeys.GEAR_START_COMMAND + " are not set");
  }
}
