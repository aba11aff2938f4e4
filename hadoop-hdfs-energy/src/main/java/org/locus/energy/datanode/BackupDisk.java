package org.locus.energy.datanode;

import java.io.IOException;

import org.locus.energy.accounting.EnergyLedger;
import org.locus.energy.disk.BlockDevice;
import org.locus.energy.disk.DiskPowerBackend;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.energy.disk.DiskPowerState;
import org.locus.energy.disk.SpinUpFailedException;
import org.locus.energy.disk.UnsupportedDeviceException;
import org.locus.energy.policy.SpinDownDecision;
import org.locus.energy.policy.SpinDownPolicy;
import org.locus.energy.policy.WriteIntensityGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The power-state machine of one DataNode disk (seed 000 §4.3.2), advanced by {@link #tick}
 * with the I/O seen since the last tick, and by {@link #wake}. It carries out what its
 * {@link SpinDownDecision} decides (the only place that decides when and whether to spin down
 * or change mode) and accounts every state's time. States: ACTIVE, IDLE, STANDBY,
 * WAKING. Modes:
 * <ul>
 *   <li><b>automatic</b> (normal): the drive's timer is set once ({@code -S}); the disk goes to
 *       standby after the policy's idle time — modelled when the drive does it, issued
 *       ({@code -y}) when the policy times it itself;</li>
 *   <li><b>manual</b> (bulk import, recovery): when the write guard trips the drive timer is
 *       switched off ({@code -S 0}) so writes never wait for a spin-up; once writes are quiet
 *       the disk is forced to standby ({@code -y} / {@code -Y}) and automatic mode returns.</li>
 * </ul>
 * A disk that spun up stays up for the minimum residency, so it does not thrash. An
 * <i>unmanaged</i> disk (a primary, the accounting-only baseline, or an unsupported device) is
 * never spun down but still accounted. Every state's residency goes to the {@link EnergyLedger}.
 * A disk that <i>did not spin up</i> when woken (its wake command failed or overran the bound)
 * is marked failed and gets no further command: the power manager takes its volume out of
 * service; only a disk that has accepted a command before can fail so, since a command path
 * that never worked (no sudoers line, no hdparm) says nothing about the disk.
 * Not thread-safe; the power manager calls it from one thread and reads it under its lock.
 */
public class BackupDisk {
  private static final Logger LOG = LoggerFactory.getLogger(BackupDisk.class);

  /** The wake reason of a disk spun up by an access that found it in standby. */
  public static final String DEMAND_WAKE = "an access found the disk in standby";

  /** Power-management mode of the seed's two schemes. */
  public enum Mode { AUTOMATIC, MANUAL }

  private final String name;
  private final String storageId;
  private final boolean backup;
  private final BlockDevice device;
  private final DiskPowerBackend backend;
  private final SpinDownPolicy policy;
  private final SpinDownDecision decision;
  private final EnergyLedger ledger;
  private final boolean deepSleep;
  private boolean managed;
  private String unmanagedReason;
  /** A command of this disk's has succeeded: its command path works. */
  private boolean acceptedCommand;
  /** Why the disk did not spin up, or null; volatile: the manager reads it after the tick. */
  private volatile String spinUpFailure;

  /** Volatile: the metrics system reads it from its own thread, outside the tick. */
  private volatile DiskPowerState state = DiskPowerState.IDLE;
  private Mode mode = Mode.AUTOMATIC;
  private long lastTick;
  private long lastIoAt;
  private long upSince;
  /** Woken ahead of need and not accessed since: the access is still to come. */
  private boolean awaitingAccess;
  private long readyAt;
  private boolean stallCounted;
  private String wakeReason;
  private String lastWakeRequest;

  BackupDisk(String name, boolean backup, BlockDevice device, DiskPowerBackend backend,
      SpinDownPolicy policy, WriteIntensityGuard guard, long minResidencyMillis,
      boolean deepSleep, String unmanagedReason) {
    this(name, backup, device, backend, backend.profile(), policy, guard, minResidencyMillis,
        deepSleep, unmanagedReason);
  }

  /**
   * A disk whose power profile may differ from the backend's single drive (e.g. an array of
   * several drives). The power manager and the trace replay create them.
   */
  public BackupDisk(String name, boolean backup, BlockDevice device, DiskPowerBackend backend,
      DiskPowerProfile profile, SpinDownPolicy policy, WriteIntensityGuard guard,
      long minResidencyMillis, boolean deepSleep, String unmanagedReason) {
    this(name, backup, name, device, backend, profile, policy, guard, minResidencyMillis,
        deepSleep, unmanagedReason);
  }

  /** A DataNode volume's disk, known by the volume's storage ID. */
  BackupDisk(String name, boolean backup, String storageId, BlockDevice device,
      DiskPowerBackend backend, DiskPowerProfile profile, SpinDownPolicy policy,
      WriteIntensityGuard guard, long minResidencyMillis, boolean deepSleep,
      String unmanagedReason) {
    this.name = name;
    this.storageId = storageId;
    this.backup = backup;
    this.device = device;
    this.backend = backend;
    this.policy = policy;
    this.decision = new SpinDownDecision(policy, guard, minResidencyMillis);
    this.ledger = new EnergyLedger(profile);
    this.deepSleep = deepSleep;
    this.managed = unmanagedReason == null;
    this.unmanagedReason = unmanagedReason;
  }

  /** Starts in automatic mode: sets the drive's standby timer. */
  public void start(long now) {
    lastTick = now;
    lastIoAt = now;
    upSince = now;
    if (managed) {
      command(() -> backend.setStandbyTimeout(device, policy.standbyAfterMillisForDrive()));
    }
  }

  /** Accounts the time since the last tick and reacts to the I/O seen in it. */
  public void tick(long now, long reads, long writes) {
    boolean io = reads + writes > 0;
    DiskPowerState during = io && state == DiskPowerState.IDLE ? DiskPowerState.ACTIVE : state;
    ledger.account(during, now - lastTick, io);
    lastTick = now;
    if (state == DiskPowerState.WAKING && now >= readyAt) {
      state = DiskPowerState.IDLE;
      upSince = now;
    }
    if (io) {
      // every idle gap the policy may learn from, whether the disk slept through it or not;
      // the time from a wake to the access it was for is no gap
      if (!awaitingAccess) {
        policy.observeIdleGap(now - lastIoAt);
      }
      awaitingAccess = false;
      if (state == DiskPowerState.STANDBY) {
        // an access spun the disk up and waited for it (seed §4.3.2 "Accessing Backup Disks")
        ledger.spinUp(true);
        wakeReason = DEMAND_WAKE;
        state = DiskPowerState.WAKING;
        readyAt = now + backend.profile().spinUpMillis();
        stallCounted = true;
      } else if (state == DiskPowerState.WAKING && !stallCounted) {
        // woken ahead of need, but not far enough ahead: the access waits for the rest
        ledger.stall(readyAt - now);
        stallCounted = true;
      } else if (state != DiskPowerState.WAKING) {
        state = DiskPowerState.ACTIVE;
      }
      lastIoAt = now;
    } else if (state == DiskPowerState.ACTIVE) {
      state = DiskPowerState.IDLE;
    }
    if (!managed) {
      return;
    }
    SpinDownDecision.Action action = decision.decide(new SpinDownDecision.Tick(now, writes,
        state == DiskPowerState.IDLE, mode == Mode.MANUAL, now - lastIoAt, now - upSince,
        awaitingAccess));
    switch (action) {
      case ENTER_MANUAL:
        mode = Mode.MANUAL;
        command(() -> backend.setStandbyTimeout(device, 0));
        break;
      case LEAVE_MANUAL:
        spinDown();
        command(() -> backend.setStandbyTimeout(device, policy.standbyAfterMillisForDrive()));
        mode = Mode.AUTOMATIC;
        break;
      case ISSUE_SPIN_DOWN:
        awaitingAccess = false; // it did not come
        spinDown();
        break;
      case DRIVE_TIMER_FIRES:
        awaitingAccess = false;
        state = DiskPowerState.STANDBY; // modelled: the drive's own -S timer fired
        break;
      default:
        break;
    }
  }

  /** Spins the disk up ahead of need (prediction, primary failure, command). */
  void wake(long now, String reason) {
    lastWakeRequest = reason;
    upSince = Math.max(upSince, now);
    lastIoAt = now;
    awaitingAccess = managed;
    if (!managed || state != DiskPowerState.STANDBY) {
      return;
    }
    if (command(() -> backend.wake(device))) {
      LOG.info("Waking {} ({}): {}", name, device, reason);
      wakeReason = reason;
      ledger.spinUp(false);
      stallCounted = false;
      state = DiskPowerState.WAKING;
      readyAt = now + backend.profile().spinUpMillis();
      upSince = readyAt;
      lastIoAt = readyAt; // the drive's idle timer starts once it is ready
    }
  }

  private void spinDown() {
    if (command(() -> backend.spinDown(device, deepSleep))) {
      state = DiskPowerState.STANDBY;
    }
  }

  private interface DiskCommand {
    void run() throws IOException;
  }

  /** Runs a backend command; an unsupported device stops management, the DataNode goes on. */
  private boolean command(DiskCommand c) {
    try {
      c.run();
      acceptedCommand = true;
      return true;
    } catch (SpinUpFailedException e) {
      if (!acceptedCommand) {
        LOG.error("Power command on {} failed; its state is unchanged, and since no command "
            + "has worked on it yet the disk is not marked failed: {}", name, e.getMessage());
        return false;
      }
      managed = false;
      spinUpFailure = e.getMessage();
      unmanagedReason = "did not spin up: " + e.getMessage();
      LOG.error("Backup disk {} did not spin up and is marked failed: {}. Its volume is taken "
          + "out of service (readers use the blocks' other replicas, the NameNode "
          + "re-replicates them) until the DataNode restarts or the volume is re-added", device,
          e.getMessage());
    } catch (UnsupportedDeviceException e) {
      managed = false;
      unmanagedReason = e.getMessage();
      LOG.warn("Backup disk {} is no longer power-managed: {}", name, e.getMessage());
    } catch (IOException e) {
      LOG.error("Power command on {} failed; its state is unchanged: {}", name, e.getMessage());
    }
    return false;
  }

  public String name() {
    return name;
  }

  /** @return the storage ID of the disk's volume (its name outside a DataNode) */
  public String storageId() {
    return storageId;
  }

  /** @return true for a backup-replica disk, false for a primary */
  public boolean backup() {
    return backup;
  }

  public BlockDevice device() {
    return device;
  }

  public DiskPowerState state() {
    return state;
  }

  /**
   * @return idle time after which the disk goes to standby now, as its policy decides; -1 for
   *     a disk that is never spun down
   */
  public long spinDownAfterMillis() {
    return managed ? policy.standbyAfterMillis() : -1;
  }

  /** @return why the disk last left standby ({@link #DEMAND_WAKE} or a wake request's reason) */
  public String wakeReason() {
    return wakeReason;
  }

  /** @return the reason of the last wake request, whether the disk was asleep or not */
  public String lastWakeRequest() {
    return lastWakeRequest;
  }

  public Mode mode() {
    return mode;
  }

  public boolean managed() {
    return managed;
  }

  /**
   * @return why the disk did not spin up when woken (the command and its exit code or time
   *     limit), or null for a disk that has not failed so
   */
  public String spinUpFailure() {
    return spinUpFailure;
  }

  /** @return why the disk is not power-managed, or null when it is */
  public String unmanagedReason() {
    return unmanagedReason;
  }

  public EnergyLedger ledger() {
    return ledger;
  }
}
