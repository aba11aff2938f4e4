package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.locus.zone.yarn.policy.ZoneClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The online mechanism (docs/zone.md, "Online: the hold file"): the file system stays mounted,
 * and the file {@code MOUNT/.zonectl-hold} owns every free block outside the allowed area
 * ({@code zonectl hold}, {@code hold-release}). The area can grow while jobs write
 * ({@code hold-monitor}), and zonectl's hold record lets an interrupted operation be finished
 * and a hold a dead NodeManager left be found at the next start.
 */
public final class OnlineHoldMechanism implements ZoneMechanism, OnlineArea {

  private static final Logger LOG = LoggerFactory.getLogger(OnlineHoldMechanism.class);

  private final Zonectl zonectl;
  private final String mountPoint;

  /** @param mountPoint where the local-dir file system is mounted */
  public OnlineHoldMechanism(Zonectl zonectl, String mountPoint) {
    this.zonectl = zonectl;
    this.mountPoint = mountPoint;
  }

  /**
   * Whether zonectl can hold an area on {@code mountPoint} ({@code zonectl hold-status}): a
   * mounted ext4 it may write to.
   *
   * @throws IOException zonectl's refusal, which says why not
   */
  public static void probe(Zonectl zonectl, String mountPoint) throws IOException {
    zonectl.holdStatus(mountPoint);
  }

  @Override
  public String describe() {
    return "online hold on " + mountPoint;
  }

  @Override
  public boolean settleLeftovers() throws IOException {
    ZoneState state = zonectl.holdStatus(mountPoint);
    if ("interrupted".equals(state.state())) {
      LOG.warn("A zone operation on {} was interrupted; recovering it", mountPoint);
      state = zonectl.holdRecover(mountPoint);
    }
    if (!state.isReserved()) {
      return false;
    }
    LOG.info("Releasing the {} area a previous NodeManager left on {}", state.zoneClass(),
        mountPoint);
    zonectl.holdRelease(mountPoint);
    return true;
  }

  /** The hold moves on the mounted file system: nothing to prepare. */
  @Override
  public void beginEdit() {
  }

  @Override
  public ZoneState setArea(ZoneClass zoneClass, String outerSize) throws IOException {
    return zonectl.hold(mountPoint, zoneClass, outerSize);
  }

  @Override
  public ZoneState release() throws IOException {
    return zonectl.holdRelease(mountPoint);
  }

  /** The file system never left the node: nothing to give back. */
  @Override
  public void endEdit() {
  }

  @Override
  public Optional<OnlineArea> online() {
    return Optional.of(this);
  }

  @Override
  public String mountPoint() {
    return mountPoint;
  }

  @Override
  public String growIfShort(String expandBelow) throws IOException {
    return zonectl.holdMonitorTick(mountPoint, expandBelow);
  }

  @Override
  public UsageSource usage() {
    return new LocalDirUsage(Path.of(mountPoint), zonectl);
  }
}
