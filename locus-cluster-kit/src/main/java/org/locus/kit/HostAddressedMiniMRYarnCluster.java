package org.locus.kit;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link MiniMRYarnCluster} whose NodeManagers each live on their own loopback address.
 *
 * <p>MiniYARNCluster hard-codes {@code localhost:0} for every NodeManager. After the stock
 * initialisation this class points NodeManager {@code i} at {@link NodeAddressPlan#hostOf}
 * {@code (i + 1)} (the same address as DataNode {@code i}), before any of them binds. YARN names
 * a NodeManager after the address its container manager is bound to, so containers and block
 * locations then name the same hosts and the scheduler can place maps data-locally.
 *
 * <p>Stopping is done for all NodeManagers at once: each one waits for its containers and
 * services to wind down, and doing that one after another dominated test time.
 */
public class HostAddressedMiniMRYarnCluster extends MiniMRYarnCluster {
  private static final Logger LOG = LoggerFactory.getLogger(HostAddressedMiniMRYarnCluster.class);

  private final int nodeCount;

  public HostAddressedMiniMRYarnCluster(String name, int nodeCount) {
    super(name, nodeCount);
    this.nodeCount = nodeCount;
  }

  @Override
  public void serviceInit(Configuration conf) throws Exception {
    super.serviceInit(conf);
    for (int i = 0; i < nodeCount; i++) {
      String host = NodeAddressPlan.hostOf(i + 1);
      Configuration nmConf = getNodeManager(i).getConfig();
      nmConf.set(YarnConfiguration.NM_ADDRESS, host + ":0");
      nmConf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
      WebAppUtils.setNMWebAppHostNameAndPort(nmConf, host, 0);
    }
  }

  @Override
  protected void serviceStop() throws Exception {
    List<Thread> stoppers = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      NodeManager nm = getNodeManager(i);
      if (nm == null || nm.getServiceState() != Service.STATE.STARTED) {
        continue;
      }
      Thread stopper = new Thread(nm::stop, "stop-nodemanager-" + i);
      stopper.start();
      stoppers.add(stopper);
    }
    for (Thread stopper : stoppers) {
      stopper.join();
    }
    LOG.info("Stopped {} NodeManagers in parallel", stoppers.size());
    super.serviceStop();
  }
}
