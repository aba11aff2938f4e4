package org.locus.netns;

import java.io.File;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.locus.zone.yarn.JobAwareZoneService;
import org.locus.zone.yarn.ZoneConfigKeys;

/**
 * Keys only one node can have, because they name its own devices and mounts, which exist only
 * once {@code up} has made them. Today: the job-aware zone hook's (docs/zone.md) when the
 * cluster's keys install it in the NodeManagers ({@code locus_zone} in
 * {@code yarn.nodemanager.aux-services}): the device and mount point of the node's
 * {@code nmlocal} disk, an outer area of half that disk, the {@code zonectl} of the
 * cluster's bundle, zone journals in the node's own directory (so {@code down} removes them;
 * the feature file's {@code /var/lib/zonectl} is one host directory for every node), and the
 * online monitor's threshold cut to an eighth of the disk when the feature file's is more than
 * the outer area (its 2G would ask a small loop disk to grow its area at every poll). The
 * hook runs zonectl itself where the NodeManagers run as root, and through the cluster's
 * privileged helper where they run as {@code yarn} ({@link DaemonUsers}).
 *
 * @param fillIns set where the features and {@code --conf} leave the key empty
 * @param overrides set always (a program path that does not exist on this host)
 */
public record NodeSettings(Map<String, String> fillIns, Map<String, String> overrides) {
  /** The feature file's journal directory, a host path shared by every node of a cluster. */
  static final String HOST_STATE_DIR = "/var/lib/zonectl";

  /** No node keys. */
  public static final NodeSettings NONE = new NodeSettings(Map.of(), Map.of());

  /**
   * @param nmLocalDevice the loop device of the node's NodeManager disk
   * @return the zone hook's keys for {@code node}, or {@link #NONE} when the cluster does not
   *     install the hook
   */
  static NodeSettings zone(ClusterLayout layout, NetnsClusterSpec spec, String node,
      String nmLocalDevice) {
    String services = spec.keys().getOrDefault(YarnConfiguration.NM_AUX_SERVICES, "");
    boolean installed = false;
    for (String service : services.split(",")) {
      installed |= service.trim().equals(JobAwareZoneService.SERVICE_NAME);
    }
    if (!installed) {
      return NONE;
    }
    Map<String, String> fillIns = new HashMap<>();
    fillIns.put(ZoneConfigKeys.DEVICE, nmLocalDevice);
    fillIns.put(ZoneConfigKeys.MOUNT_POINT, layout.mountPoint(node, "nmlocal").getPath());
    fillIns.put(ZoneConfigKeys.OUTER_SIZE, (spec.diskBytes() / 2 >> 20) + "M");
    Map<String, String> overrides = new HashMap<>();
    if (spec.daemonUsers()) {
      // NodeManagers as yarn: zonectl, mount and umount through the cluster's set-user-ID
      // helper, whose configuration sets the journal directory (NetnsPrivilegedHelper); the
      // hook warns when the key is set too.
      overrides.put(ZoneConfigKeys.HELPER_MODE, "setuid");
      overrides.put(ZoneConfigKeys.HELPER_PATH, NetnsPrivilegedHelper.BINARY.getPath());
      overrides.put(ZoneConfigKeys.STATE_DIR, "");   // the helper's zonectl.state-dir decides
    } else {
      // NodeManagers as root: the hook runs zonectl itself.
      overrides.put(ZoneConfigKeys.HELPER_MODE, "direct");
    }
    String zonectl = spec.keys().getOrDefault(ZoneConfigKeys.ZONECTL, "").trim();
    if (zonectl.isEmpty() || !new File(zonectl).canExecute()) {
      overrides.put(ZoneConfigKeys.ZONECTL, new File(layout.distDir(), "bin/zonectl").getPath());
    }
    String stateDir = spec.keys().getOrDefault(ZoneConfigKeys.STATE_DIR, "").trim();
    if (!spec.daemonUsers() && (stateDir.isEmpty() || stateDir.equals(HOST_STATE_DIR))) {
      overrides.put(ZoneConfigKeys.STATE_DIR, new File(layout.nodeDir(node), "zonectl").getPath());
    }
    long outer = spec.diskBytes() / 2;
    String expandBelow = spec.keys().getOrDefault(ZoneConfigKeys.MONITOR_EXPAND_BELOW, "").trim();
    if (expandBelow.isEmpty()
        || StringUtils.TraditionalBinaryPrefix.string2long(expandBelow) >= outer) {
      overrides.put(ZoneConfigKeys.MONITOR_EXPAND_BELOW, (spec.diskBytes() / 8 >> 20) + "M");
    }
    return new NodeSettings(fillIns, overrides);
  }
}
