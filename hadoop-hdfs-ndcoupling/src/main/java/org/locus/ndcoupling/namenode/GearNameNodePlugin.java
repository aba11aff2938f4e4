package org.locus.ndcoupling.namenode;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.HAUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.GearBlockMap;
import org.apache.hadoop.hdfs.server.blockmanagement.GearPlacementRule;
import org.apache.hadoop.hdfs.server.blockmanagement.RoutingBlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.util.RwLockMode;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.util.ServicePlugin;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.gear.GearLevelFile;
import org.locus.ndcoupling.gear.GearPlan;
import org.locus.ndcoupling.gear.TransferMethod;
import org.locus.ndcoupling.gear.UpdateLog;
import org.locus.ndcoupling.rpc.GearProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NameNode plug-in ({@code dfs.namenode.plugins}) that runs the gears: opens the update log,
 * restores the stored gear (maintenance states and placement), hands {@link GearPlacementRule}
 * its state, serves {@link GearProtocol} and publishes {@link GearMetrics}.
 *
 * <p>Without {@code locus.ndcoupling.gear.plan} it does nothing: the NameNode is stock. A plan
 * without the routing placement policy and the gear rule, or without the combined hosts
 * provider, is refused at start with one line naming the missing key; the NameNode then serves
 * as stock, and gear commands fail to connect.
 */
public class GearNameNodePlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(GearNameNodePlugin.class);

  private GearService service;
  private RPC.Server server;
  private UpdateLog log;
  private boolean metricsRegistered;

  @Override
  public void start(Object nameNodeObject) {
    NameNode nameNode = (NameNode) nameNodeObject;
    Configuration conf = nameNode.getConf();
    try {
      Optional<GearPlan> plan = GearPlan.from(conf);
      if (plan.isEmpty()) {
        LOG.info("Gears off: {} is not set", NdCouplingConfigKeys.GEAR_PLAN);
        return;
      }
      start(nameNode, conf, plan.get());
    } catch (IOException | RuntimeException e) {
      LOG.error("Gears not started: {}", e.getMessage(), e);
      stop();
    }
  }

  private void start(NameNode nameNode, Configuration conf, GearPlan plan) throws IOException {
    FSNamesystem namesystem = nameNode.getNamesystem();
    GearPlacementRule rule = gearRule(namesystem.getBlockManager().getBlockPlacementPolicy());
    Path dir = gearDir(conf);
    claimFor(dir, namesystem.getBlockPoolId());
    log = UpdateLog.open(dir.resolve("update.log"));
    GearLevelFile levelFile = new GearLevelFile(dir.resolve("gear"));
    int level = levelFile.read(plan.topGear());
    plan.checkLevel(level);
    String hostsFile = conf.getTrimmed(DFSConfigKeys.DFS_HOSTS, "");
    if (hostsFile.isEmpty()) {
      hostsFile = dir.resolve("dfs.hosts.json").toString();
      LOG.warn("{} is not set: gears keep the maintenance states in {}; set {} to that file so"
          + " that hdfs dfsadmin -refreshNodes reads the same states", DFSConfigKeys.DFS_HOSTS,
          hostsFile, DFSConfigKeys.DFS_HOSTS);
    }
    MaintenanceHosts hosts = new MaintenanceHosts(conf, namesystem.getBlockManager()
        .getDatanodeManager(), hostsFile);
    GearBlockMap blockMap = new GearBlockMap(namesystem);
    long timeoutMs = conf.getTimeDuration(NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS,
        NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS_DEFAULT,
        java.util.concurrent.TimeUnit.SECONDS, java.util.concurrent.TimeUnit.MILLISECONDS);
    long reissueMs = conf.getTimeDuration(NdCouplingConfigKeys.GEAR_REISSUE_SECONDS,
        NdCouplingConfigKeys.GEAR_REISSUE_SECONDS_DEFAULT,
        java.util.concurrent.TimeUnit.SECONDS, java.util.concurrent.TimeUnit.MILLISECONDS);
    service = new GearService(plan, rule, log, levelFile, hosts, blockMap,
        path -> inodeIdOf(namesystem, path), transfer -> mover(transfer, conf, blockMap),
        conf.get(DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_KEY,
            DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_DEFAULT), level, timeoutMs,
        reissueMs, 1000 * conf.getTimeDuration(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT, java.util.concurrent.TimeUnit.SECONDS));
    service.applyStoredGear();
    String nameservice = DFSUtil.getNamenodeNameServiceId(conf);
    if (HAUtil.isHAEnabled(conf, nameservice)) {
      String id = HAUtil.getNameNodeId(conf, nameservice);
      service.reportRole(new NameNodeRole() {
        @Override
        public String nameNodeId() {
          return id;
        }

        @Override
        public String haState() {
          return String.valueOf(nameNode.getState()).toLowerCase(java.util.Locale.ROOT);
        }

        @Override
        public long appliedTxId() {
          return nameNode.getFSImage().getLastAppliedOrWrittenTxId();
        }

        @Override
        public boolean inSafeMode() {
          return nameNode.getNamesystem().isInSafeMode();
        }
      });
    }
    server = startServer(conf, service);
    DefaultMetricsSystem.instance().register(GearMetrics.SOURCE, "NDCouplingHDFS gears",
        new GearMetrics(service));
    metricsRegistered = true;
    LOG.info("Gears on: {}; gear {}; {} pending log entries in {}; gear service at {}", plan,
        level, log.pendingCount(), log.file(), server.getListenerAddress());
  }

  private static BlockMover mover(TransferMethod transfer, Configuration conf,
      GearBlockMap blockMap) {
    return transfer == TransferMethod.BATCH ? new BatchBlockMover(conf, blockMap)
        : new QueueBlockMover(blockMap);
  }

  private static GearPlacementRule gearRule(BlockPlacementPolicy policy) {
    if (!(policy instanceof RoutingBlockPlacementPolicy)) {
      throw new IllegalStateException(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY + " is "
          + policy.getClass().getName() + "; gears need "
          + RoutingBlockPlacementPolicy.class.getName() + " with "
          + GearPlacementRule.class.getName() + " in locus.placement.rules");
    }
    return ((RoutingBlockPlacementPolicy) policy).rule(GearPlacementRule.class)
        .orElseThrow(() -> new IllegalStateException("locus.placement.rules does not list "
            + GearPlacementRule.class.getName() + "; gears need it"));
  }

  private static Path gearDir(Configuration conf) {
    String dir = conf.getTrimmed(NdCouplingConfigKeys.GEAR_DIR, "");
    if (!dir.isEmpty()) {
      return Path.of(dir);
    }
    Collection<URI> names = FSNamesystem.getNamespaceDirs(conf);
    if (names.isEmpty()) {
      throw new IllegalStateException(NdCouplingConfigKeys.GEAR_DIR + " is not set and the"
          + " NameNode has no " + DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY);
    }
    return new File(names.iterator().next()).toPath().toAbsolutePath().getParent()
        .resolve("locus-gears");
  }

  /**
   * Makes sure the gear directory belongs to this namespace: a directory left by a namespace
   * since formatted again (another block pool) would name files and nodes of a namespace that
   * is gone, so it is moved aside, with a warning, and the new namespace starts in its top gear.
   */
  private static void claimFor(Path dir, String blockPoolId) throws IOException {
    Path owner = dir.resolve("block-pool");
    if (java.nio.file.Files.exists(owner)) {
      String recorded = java.nio.file.Files.readString(owner).trim();
      if (recorded.equals(blockPoolId)) {
        return;
      }
      Path aside = dir.resolveSibling(dir.getFileName() + ".stale-" + System.currentTimeMillis());
      java.nio.file.Files.move(dir, aside);
      LOG.warn("Gear directory {} belonged to block pool {}, not this NameNode's {} (formatted"
          + " again?); moved it to {} and starting in the top gear", dir, recorded, blockPoolId,
          aside);
    }
    java.nio.file.Files.createDirectories(dir);
    java.nio.file.Files.writeString(owner, blockPoolId + "\n");
  }

  private static long inodeIdOf(FSNamesystem namesystem, String path) {
    namesystem.readLock(RwLockMode.FS);
    try {
      INode inode = namesystem.getFSDirectory().getINode(path);
      return inode == null ? -1 : inode.getId();
    } catch (IOException e) {
      return -1;
    } finally {
      namesystem.readUnlock(RwLockMode.FS, "gearLog");
    }
  }

  private static RPC.Server startServer(Configuration conf, GearService service)
      throws IOException {
    InetSocketAddress address = NetUtils.createSocketAddr(
        conf.getTrimmed(NdCouplingConfigKeys.GEAR_RPC_ADDRESS,
            "0.0.0.0:" + NdCouplingConfigKeys.GEAR_RPC_PORT_DEFAULT),
        NdCouplingConfigKeys.GEAR_RPC_PORT_DEFAULT, NdCouplingConfigKeys.GEAR_RPC_ADDRESS);
    Configuration rpcConf = new Configuration(conf);
    RPC.setProtocolEngine(rpcConf, GearProtocol.class, WritableRpcEngine.class);
    RPC.Server server = new RPC.Builder(rpcConf).setProtocol(GearProtocol.class)
        .setInstance(service).setBindAddress(address.getHostString())
        .setPort(address.getPort())
        .setNumHandlers(conf.getInt(NdCouplingConfigKeys.GEAR_RPC_HANDLERS,
            NdCouplingConfigKeys.GEAR_RPC_HANDLERS_DEFAULT))
        .setVerbose(false).build();
    server.start();
    return server;
  }

  /** @return the gear service's bound address, or null while gears are off (for tests) */
  public InetSocketAddress rpcAddress() {
    return server == null ? null : server.getListenerAddress();
  }

  @Override
  public void stop() {
    if (server != null) {
      server.stop();
      server = null;
    }
    if (service != null) {
      service.stop();
      service = null;
    }
    if (metricsRegistered) {
      DefaultMetricsSystem.instance().unregisterSource(GearMetrics.SOURCE);
      metricsRegistered = false;
    }
    if (log != null) {
      try {
        log.close();
      } catch (IOException e) {
        LOG.warn("Closing the update log {}", log.file(), e);
      }
      log = null;
    }
  }

  @Override
  public void close() {
    stop();
  }
}
