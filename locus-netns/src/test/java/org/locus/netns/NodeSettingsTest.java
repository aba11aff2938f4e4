package org.locus.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.File;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** Which zone-hook keys a node gets, and which of the cluster's keys they leave alone. */
class NodeSettingsTest {
  private static final File DIR = new File("/srv/clusters/c1");
  private static final ClusterLayout LAYOUT = new ClusterLayout(DIR);
  private static final String DEVICE = "/dev/loop7";
  private static final StockInstallation STOCK = new StockInstallation(new File(DIR, "hadoop"));

  private static NetnsClusterSpec spec(Map<String, String> keys) {
    return NetnsClusterSpec.builder(2, new File(DIR, "dist/share/locus/lib")).yarn(true)
        .nodeMemory(2L << 30).diskSize(512L << 20).keys(keys).build();
  }

  private static Map<String, String> zoneFeature() {
    Map<String, String> keys = new HashMap<>();
    keys.put("yarn.nodemanager.aux-services", "mapreduce_shuffle, locus_zone");
    keys.put("locus.zone.zonectl", "/nonexistent/sbin/zonectl");
    keys.put("locus.zone.device", "");
    keys.put("locus.zone.state-dir", "/var/lib/zonectl");
    keys.put("locus.zone.monitor.expand-below", "2G");
    return keys;
  }

  @Test
  void aClusterWithoutTheHookGetsNoNodeSettings() {
    Map<String, String> keys = Map.of("yarn.nodemanager.aux-services", "mapreduce_shuffle",
        "locus.zone.device", "");
    assertSame(NodeSettings.NONE, NodeSettings.zone(LAYOUT, spec(keys), "node1", DEVICE));
  }

  @Test
  void theHookGetsTheNodesOwnDiskBundleToolAndStateDirectory() {
    Configuration conf = worker(zoneFeature(), "node2");
    assertEquals(DEVICE, conf.get("locus.zone.device"));
    assertEquals(LAYOUT.mountPoint("node2", "nmlocal").getPath(),
        conf.get("locus.zone.mount-point"));
    assertEquals("256M", conf.get("locus.zone.outer-size"), "half of 512 MiB");
    assertEquals(new File(LAYOUT.distDir(), "bin/zonectl").getPath(),
        conf.get("locus.zone.zonectl"), "the configured zonectl does not exist here");
    assertEquals(new File(LAYOUT.nodeDir("node2"), "zonectl").getPath(),
        conf.get("locus.zone.state-dir"), "not the host-wide journal directory");
    assertEquals("64M", conf.get("locus.zone.monitor.expand-below"),
        "2G is more than the 256M outer area: an eighth of the disk");
    assertEquals("direct", conf.get("locus.zone.helper.mode"),
        "the cluster's NodeManagers are root: no sudo, no helper");
  }

  @Test
  void nodeManagersAsYarnReachZonectlThroughTheClustersSetUserIdHelper() {
    NetnsClusterSpec spec = spec(zoneFeature()).toBuilder().daemonUsers(true).build();
    Configuration conf = new SiteConfiguration(LAYOUT, spec, STOCK).worker("node1",
        NodeSettings.zone(LAYOUT, spec, "node1", DEVICE));
    assertEquals("setuid", conf.get("locus.zone.helper.mode"));
    assertEquals("/var/lib/locus-netns/locus-priv", conf.get("locus.zone.helper.path"));
    assertEquals("", conf.get("locus.zone.state-dir"),
        "the helper's configuration gives zonectl its journal directory, not the hook");
    assertEquals("root", conf.get("dfs.permissions.superusergroup"),
        "the NameNode runs as hdfs; root, who runs the cluster tools, stays a superuser");
    assertEquals(null, worker(zoneFeature(), "node1").get("dfs.permissions.superusergroup"),
        "as root, the stock default");
  }

  @Test
  void keysTheOperatorSetAreKept() {
    Map<String, String> keys = zoneFeature();
    keys.put("locus.zone.device", "/dev/sdz");
    keys.put("locus.zone.outer-size", "100M");
    keys.put("locus.zone.zonectl", "/bin/true");
    keys.put("locus.zone.state-dir", "/srv/zone-journals");
    keys.put("locus.zone.monitor.expand-below", "32M");
    Configuration conf = worker(keys, "node1");
    assertEquals("/dev/sdz", conf.get("locus.zone.device"));
    assertEquals("100M", conf.get("locus.zone.outer-size"));
    assertEquals("/bin/true", conf.get("locus.zone.zonectl"), "an executable zonectl is kept");
    assertEquals("/srv/zone-journals", conf.get("locus.zone.state-dir"));
    assertEquals("32M", conf.get("locus.zone.monitor.expand-below"));
  }

  @Test
  void nodesDoNotShareTheirDevicesOrJournals() {
    Configuration one = worker(zoneFeature(), "node1");
    Configuration two = new SiteConfiguration(LAYOUT, spec(zoneFeature()), STOCK).worker("node2",
        NodeSettings.zone(LAYOUT, spec(zoneFeature()), "node2", "/dev/loop8"));
    assertFalse(one.get("locus.zone.device").equals(two.get("locus.zone.device")));
    assertFalse(one.get("locus.zone.state-dir").equals(two.get("locus.zone.state-dir")));
    assertFalse(one.get("locus.zone.mount-point").equals(two.get("locus.zone.mount-point")));
  }

  private static Configuration worker(Map<String, String> keys, String node) {
    NetnsClusterSpec spec = spec(keys);
    return new SiteConfiguration(LAYOUT, spec, STOCK).worker(node,
        NodeSettings.zone(LAYOUT, spec, node, DEVICE));
  }
}
