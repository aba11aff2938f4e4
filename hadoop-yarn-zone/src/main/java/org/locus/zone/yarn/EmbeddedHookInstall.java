package org.locus.zone.yarn;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The keys that install the hook in an embedded cluster's NodeManager (MiniMRYarnCluster, as in
 * the tests and {@code zonectl/bench/hadoop}), where the usual {@code yarn.nodemanager.aux-services}
 * entry does not work: MiniMRYarnCluster resets that list to {@code mapreduce_shuffle}, so the
 * hook comes in through the NodeManager's aux-services manifest, which replaces the list; and
 * the hook asks the ResourceManager for an application's name with the NodeManager's
 * configuration, which in an embedded cluster names ephemeral ports ({@code host:0}) unless the
 * ResourceManager's ports are fixed.
 */
public final class EmbeddedHookInstall {
  private static final List<String> RM_ADDRESS_KEYS = List.of(YarnConfiguration.RM_ADDRESS,
      YarnConfiguration.RM_SCHEDULER_ADDRESS, YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
      YarnConfiguration.RM_ADMIN_ADDRESS, YarnConfiguration.RM_WEBAPP_ADDRESS);

  private final Path directory;
  private final Map<String, String> keys = new LinkedHashMap<>();

  private EmbeddedHookInstall(Path directory) {
    this.directory = directory;
  }

  /**
   * Writes the manifest (the shuffle handler and the hook) into a new private directory of the
   * user's home — the NodeManager refuses a manifest with a directory above it that group or
   * others can write, such as /tmp — and picks free loopback ports for the ResourceManager.
   */
  public static EmbeddedHookInstall create() throws IOException {
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("user.home")),
        "locus-zone-manifest", PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
    EmbeddedHookInstall install = new EmbeddedHookInstall(dir);
    Path manifest = dir.resolve("aux-services.json");
    Files.writeString(manifest, String.join("\n",
        "{\"services\": [",
        " {\"name\": \"mapreduce_shuffle\", \"version\": \"1\", \"configuration\":",
        "   {\"properties\": {\"class.name\": \"org.apache.hadoop.mapred.ShuffleHandler\"}}},",
        " {\"name\": \"" + JobAwareZoneService.SERVICE_NAME + "\", \"version\": \"1\","
            + " \"configuration\":",
        "   {\"properties\": {\"class.name\": \"" + JobAwareZoneService.class.getName()
            + "\"}}}",
        "]}", ""), StandardCharsets.UTF_8);
    install.keys.put(YarnConfiguration.NM_AUX_SERVICES_MANIFEST_ENABLED, "true");
    install.keys.put(YarnConfiguration.NM_AUX_SERVICES_MANIFEST, manifest.toUri().toString());
    install.keys.put(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, "true");
    for (String key : RM_ADDRESS_KEYS) {
      install.keys.put(key, "127.0.0.1:" + freePort());
    }
    return install;
  }

  /** @return the keys to give the embedded cluster, in addition to the hook's own */
  public Map<String, String> keys() {
    return Map.copyOf(keys);
  }

  /** @return the private directory holding the manifest; delete it when the cluster is down */
  public Path directory() {
    return directory;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
