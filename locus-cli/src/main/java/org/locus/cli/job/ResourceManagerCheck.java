package org.locus.cli.job;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.locus.cli.command.LocusException;

/**
 * Before a job is submitted: is the ResourceManager there? Hadoop's client retries an absent
 * ResourceManager for 15 minutes ({@code yarn.resourcemanager.connect.max-wait.ms}), silently;
 * this asks it once, waiting {@value #WAIT_MS} ms, and names the address on failure.
 */
final class ResourceManagerCheck {
  static final long WAIT_MS = 15_000;

  private ResourceManagerCheck() {
  }

  /**
   * @param conf the client's configuration
   * @param onYarn whether the job runs on YARN whatever {@code mapreduce.framework.name} says
   */
  static void requireReachable(Configuration conf, boolean onYarn) throws LocusException {
    String framework = conf.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    if (!onYarn && MRConfig.LOCAL_FRAMEWORK_NAME.equals(framework)) {
      return;
    }
    Configuration probe = new YarnConfiguration(conf);
    probe.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, WAIT_MS);
    probe.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 1_000);
    probe.setInt("ipc.client.connect.max.retries", 0);
    String address = probe.get(YarnConfiguration.RM_ADDRESS, YarnConfiguration.DEFAULT_RM_ADDRESS);
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(probe);
      client.start();
      client.getYarnClusterMetrics();
    } catch (IOException | YarnException | RuntimeException e) {
      throw new LocusException("no ResourceManager answers at " + address + " ("
          + YarnConfiguration.RM_ADDRESS + ") within " + WAIT_MS / 1000 + " s: is YARN running?"
          + " A 'locus cluster up' cluster runs it only with --yarn");
    }
  }
}
