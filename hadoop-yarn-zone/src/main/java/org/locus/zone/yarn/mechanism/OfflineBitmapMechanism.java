package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.util.Optional;
import org.locus.zone.yarn.policy.ZoneClass;

/**
 * The offline mechanism (seed 002 §4.3; docs/zone.md, "How it works"): every block outside the
 * allowed area is marked in use in the block bitmaps of the device ({@code zonectl area},
 * {@code release}). zonectl edits only an unmounted file system (docs/zone.md, "Online vs
 * offline"), so with a {@link LocalDirRemounter} each edit runs between an unmount and a mount;
 * without one the device is not mounted while the hook runs (tests, images).
 *
 * <p>A reservation a NodeManager that died left is not visible while the device is mounted; it
 * stays until the next area moves it or an operator releases it (docs/zone.md, "Limits").
 */
public final class OfflineBitmapMechanism implements ZoneMechanism {

  private final Zonectl zonectl;
  private final String device;
  private final LocalDirRemounter remounter;

  /**
   * @param device the block device or image file of the local-dir file system
   * @param remounter unmounts and mounts it around each edit; null when it is not mounted
   */
  public OfflineBitmapMechanism(Zonectl zonectl, String device, LocalDirRemounter remounter) {
    this.zonectl = zonectl;
    this.device = device;
    this.remounter = remounter;
  }

  @Override
  public String describe() {
    return "bitmaps, remount " + (remounter != null);
  }

  @Override
  public boolean settleLeftovers() {
    return false;
  }

  /** Unmounts the file system when remounting; a busy one throws and nothing changes. */
  @Override
  public void beginEdit() throws IOException {
    if (remounter != null) {
      remounter.unmount();
    }
  }

  @Override
  public ZoneState setArea(ZoneClass zoneClass, String outerSize) throws IOException {
    return zonectl.area(device, zoneClass, outerSize);
  }

  @Override
  public ZoneState release() throws IOException {
    return zonectl.release(device);
  }

  /** Mounts the file system again when remounting, also after a failed edit. */
  @Override
  public void endEdit() throws IOException {
    if (remounter != null) {
      remounter.mount();
    }
  }

  /** Bitmap edits do not steer a mounted ext4: nothing changes while jobs write. */
  @Override
  public Optional<OnlineArea> online() {
    return Optional.empty();
  }
}
