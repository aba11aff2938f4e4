package org.locus.ndcoupling.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.GearBlockMap;
import org.apache.hadoop.hdfs.server.blockmanagement.GearPlacementRule;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.locus.ndcoupling.gear.CommandIssuance;
import org.locus.ndcoupling.gear.GearLevelFile;
import org.locus.ndcoupling.gear.GearPlan;
import org.locus.ndcoupling.gear.GearUpReport;
import org.locus.ndcoupling.gear.TransferMethod;
import org.locus.ndcoupling.gear.UpdateLog;
import org.locus.ndcoupling.rpc.GearProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gears' decisions in the NameNode: which nodes leave or return in a shift, whether a shift
 * down is safe, and running a gear-up. Serves {@link GearProtocol}; one shift at a time.
 */
final class GearService implements GearProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);
  private static final int STRANDED_SHOWN = 10;

  private final GearPlan plan;
  private final GearPlacementRule rule;
  private final UpdateLog log;
  private final GearLevelFile levelFile;
  private final MaintenanceHosts hosts;
  private final GearBlockMap blockMap;
  private final GearPlacementRule.FileIds fileIds;
  private final Function<TransferMethod, BlockMover> movers;
  private final String superGroup;
  private final long timeoutMs;
  private final long reissueMs;
  private final long heartbeatMs;
  private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
    Thread thread = new Thread(r, "locus-gear-up");
    thread.setDaemon(true);
    return thread;
  });
  private volatile int level;
  private volatile GearUpRun current;
  private volatile NameNodeRole role = NameNodeRole.ALONE;
  private int gearUps;

  GearService(GearPlan plan, GearPlacementRule rule, UpdateLog log, GearLevelFile levelFile,
      MaintenanceHosts hosts, GearBlockMap blockMap, GearPlacementRule.FileIds fileIds,
      Function<TransferMethod, BlockMover> movers, String superGroup, int level,
      long timeoutMs, long reissueMs, long heartbeatMs) {
    this.plan = plan;
    this.rule = rule;
    this.log = log;
    this.levelFile = levelFile;
    this.hosts = hosts;
    this.blockMap = blockMap;
    this.fileIds = fileIds;
    this.movers = movers;
    this.superGroup = superGroup;
    this.level = level;
    this.timeoutMs = timeoutMs;
    this.reissueMs = reissueMs;
    this.heartbeatMs = heartbeatMs;
  }

  /**
   * @return whether the node heartbeats now: alive to the NameNode and heard from within three
   *     heartbeats. The NameNode keeps a stopped DataNode alive until it expires (tens of seconds
   *     to minutes), so "alive" alone cannot tell a node switched off a moment ago, or one
   *     switched on again, from one that runs.
   */
  private boolean heartbeating(DatanodeDescriptor node) {
    return node != null && node.isAlive()
        && org.apache.hadoop.util.Time.monotonicNow() - node.getLastUpdateMonotonic()
            < 3 * heartbeatMs;
  }

  /** Applies the stored gear to the NameNode (maintenance states, placement) after a start. */
  void applyStoredGear() throws IOException {
    hosts.apply(new LinkedHashSet<>(plan.allHosts()), plan.offIn(level));
    rule.useState(new GearPlacementRule.GearState(plan, level, log, fileIds));
  }

  /** Lets {@link #status} report the NameNode's HA state and applied edits. */
  void reportRole(NameNodeRole role) {
    this.role = role;
  }

  int level() {
    return level;
  }

  synchronized int gearUps() {
    return gearUps;
  }

  UpdateLog log() {
    return log;
  }

  GearUpReport lastReport() {
    GearUpRun run = current;
    return run == null ? null : run.progress();
  }

  private void checkSuperuser() throws IOException {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      return;
    }
    String self = UserGroupInformation.getLoginUser().getShortUserName();
    if (caller.getShortUserName().equals(self)
        || List.of(caller.getGroupNames()).contains(superGroup)) {
      return;
    }
    throw new AccessControlException("gear shifts need the HDFS superuser (" + self
        + " or group " + superGroup + "); " + caller.getShortUserName() + " is neither");
  }

  @Override
  public String status() throws IOException {
    StringBuilder text = new StringBuilder();
    text.append("plan=").append(plan).append('\n');
    text.append("gear=").append(level).append('\n');
    text.append("top-gear=").append(plan.topGear()).append('\n');
    text.append("pending-entries=").append(log.pendingCount()).append('\n');
    text.append("log-bytes=").append(log.sizeBytes()).append('\n');
    text.append("log=").append(log.file()).append('\n');
    text.append("namenode=").append(role.nameNodeId()).append('\n');
    text.append("ha-state=").append(role.haState()).append('\n');
    text.append("txid=").append(role.appliedTxId()).append('\n');
    text.append("safemode=").append(role.inSafeMode()).append('\n');
    GearUpRun run = current;
    text.append("gear-up=").append(run == null ? "none" : run.progress().state()).append('\n');
    Set<String> active = plan.activeIn(level);
    for (String host : plan.allHosts()) {
      DatanodeDescriptor node = blockMap.datanode(host);
      text.append("node.").append(host).append('=')
          .append(active.contains(host) ? "on" : "off")
          .append(" admin=").append(node == null ? "UNREGISTERED" : node.getAdminState().name())
          .append(" live=").append(heartbeating(node))
          .append(" group=").append(plan.groupOf(host)).append('\n');
    }
    return text.toString();
  }

  @Override
  public synchronized String shiftDown(int target) throws IOException {
    checkSuperuser();
    checkLevel(target);
    checkNoGearUp();
    if (target >= level) {
      throw new IOException("gear " + target + " is not below the current gear " + level
          + "; use gear up to shift up");
    }
    Set<String> staying = plan.activeIn(target);
    Set<String> leaving = new LinkedHashSet<>(plan.activeIn(level));
    leaving.removeAll(staying);
    List<DatanodeDescriptor> leavingNodes = new ArrayList<>();
    for (String host : leaving) {
      DatanodeDescriptor node = blockMap.datanode(host);
      if (node != null) {
        leavingNodes.add(node);
      }
    }
    List<GearBlockMap.Stranded> stranded =
        blockMap.stranded(leavingNodes, plan, staying, STRANDED_SHOWN);
    if (!stranded.isEmpty()) {
      StringBuilder why = new StringBuilder("cannot shift to gear " + target + ": "
          + (stranded.size() == STRANDED_SHOWN ? "at least " : "") + stranded.size()
          + " blocks have no live replica on the nodes that stay on (" + String.join(",",
              staying) + "); nothing changed. Blocks:");
      for (GearBlockMap.Stranded s : stranded) {
        why.append(" blk_").append(s.blockId()).append(" (").append(s.path()).append(')');
      }
      throw new IOException(why.toString());
    }
    hosts.apply(new LinkedHashSet<>(plan.allHosts()), plan.offIn(target));
    levelFile.write(target);
    level = target;
    rule.useState(new GearPlacementRule.GearState(plan, target, log, fileIds));
    LOG.info("Gear down to {}: {} enter maintenance; new blocks for them go to stand-ins",
        target, leaving);
    return "gear=" + target + "\nleaving=" + String.join(",", leaving) + "\n";
  }

  @Override
  public synchronized String followGear(int target) throws IOException {
    checkSuperuser();
    checkLevel(target);
    checkNoGearUp();
    if ("active".equals(role.haState()) && role != NameNodeRole.ALONE) {
      throw new IOException("this NameNode is active: shift it with gear set/up, not by"
          + " following another's gear");
    }
    hosts.apply(new LinkedHashSet<>(plan.allHosts()), plan.offIn(target));
    levelFile.write(target);
    int before = level;
    level = target;
    rule.useState(new GearPlacementRule.GearState(plan, target, log, fileIds));
    LOG.info("Following the active NameNode from gear {} to gear {}: {} in maintenance", before,
        target, plan.offIn(target));
    return "gear=" + target + "\n";
  }

  @Override
  public synchronized String startGearUp(int target, String issuanceWord, String transferWord)
      throws IOException {
    checkSuperuser();
    checkLevel(target);
    checkNoGearUp();
    CommandIssuance issuance;
    TransferMethod transfer;
    try {
      issuance = CommandIssuance.parse(issuanceWord);
      transfer = TransferMethod.parse(transferWord);
      transfer.checkWith(issuance);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage());
    }
    if (target <= level) {
      throw new IOException("gear " + target + " is not above the current gear " + level);
    }
    Set<String> returning = new LinkedHashSet<>(plan.activeIn(target));
    returning.removeAll(plan.activeIn(level));
    List<String> absent = new ArrayList<>();
    for (String host : returning) {
      DatanodeDescriptor node = blockMap.datanode(host);
      if (!heartbeating(node)) {
        absent.add(host);
      }
    }
    if (!absent.isEmpty()) {
      throw new IOException("start the DataNodes of " + String.join(",", absent)
          + " first: the NameNode has no live DataNode for them; nothing changed");
    }
    hosts.apply(new LinkedHashSet<>(plan.allHosts()), plan.offIn(target));
    levelFile.write(target);
    level = target;
    rule.useState(new GearPlacementRule.GearState(plan, target, log, fileIds));
    BlockMover mover = movers.apply(transfer);
    GearUpRun run = new GearUpRun(blockMap, rule, log, returning, issuance, transfer, mover,
        timeoutMs, reissueMs);
    current = run;
    gearUps++;
    runner.submit(() -> {
      try {
        GearUpReport report = run.run();
        LOG.info("Gear-up to {} ({} issuance, {} transfer): {} in {} ms", target, issuance,
            transfer, report.state(), report.totalMillis());
      } catch (IOException | RuntimeException e) {
        LOG.error("Gear-up to {} failed", target, e);
      } finally {
        mover.close();
      }
    });
    return run.progress().toText();
  }

  @Override
  public String gearUpProgress() {
    GearUpRun run = current;
    return run == null ? "state=none\n" : run.progress().toText();
  }

  private void checkLevel(int target) throws IOException {
    try {
      plan.checkLevel(target);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage());
    }
  }

  private void checkNoGearUp() throws IOException {
    GearUpRun run = current;
    if (run != null && "running".equals(run.progress().state())) {
      throw new IOException("a gear-up is still running (step " + run.progress().step()
          + "); wait for it (gear status)");
    }
  }

  void stop() {
    runner.shutdownNow();
  }

  @Override
  public long getProtocolVersion(String protocol, long clientVersion) {
    return versionID;
  }

  @Override
  public ProtocolSignature getProtocolSignature(String protocol, long clientVersion,
      int clientMethodsHash) throws IOException {
    return ProtocolSignature.getProtocolSignature(this, protocol, clientVersion,
        clientMethodsHash);
  }
}
