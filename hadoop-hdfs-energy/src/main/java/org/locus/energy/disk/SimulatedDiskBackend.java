package org.locus.energy.disk;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A <b>simulated</b> disk backend for hosts without spinning disks (tests, bench, demo): every
 * volume is its own datasheet drive ({@link DiskPowerProfile}); commands succeed and are
 * recorded, and the power manager's state model is the drive. Nothing touches a device.
 */
public class SimulatedDiskBackend implements DiskPowerBackend {
  private final DiskPowerProfile profile;
  private final List<String> commands = Collections.synchronizedList(new ArrayList<>());

  public SimulatedDiskBackend(DiskPowerProfile profile) {
    this.profile = profile;
  }

  @Override
  public String name() {
    return "simulated";
  }

  @Override
  public DiskPowerProfile profile() {
    return profile;
  }

  @Override
  public BlockDevice resolve(File volumeDir) {
    return new BlockDevice(volumeDir, "sim:" + volumeDir.getName());
  }

  @Override
  public void setStandbyTimeout(BlockDevice device, long idleMillis) {
    commands.add("timeout " + idleMillis + " " + device.devicePath());
  }

  @Override
  public void spinDown(BlockDevice device, boolean sleep) {
    commands.add((sleep ? "sleep " : "standby ") + device.devicePath());
  }

  @Override
  public void wake(BlockDevice device) {
    commands.add("wake " + device.devicePath());
  }

  /** @return the commands issued so far, oldest first */
  public List<String> commands() {
    synchronized (commands) {
      return List.copyOf(commands);
    }
  }
}
