package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.util.Optional;
import org.locus.zone.yarn.policy.ZoneClass;

/**
 * How the allowed area of the local-dir file system is made: what the zone hook's policy
 * ({@code JobAwareZoneService}: which class, when) asks of a zone mechanism. Two implement it
 * (docs/zone.md): {@link OfflineBitmapMechanism} marks the blocks outside the area in use in the
 * block bitmaps of the unmounted device, and {@link OnlineHoldMechanism} holds them with a file
 * on the mounted file system.
 *
 * <p>Lifecycle. The service chooses one mechanism when it is configured ({@code
 * locus.zone.method}) and keeps it until it stops. It calls {@link #settleLeftovers} once at
 * start, while the node is idle; then, for every change of the area, {@link #beginEdit}, one of
 * {@link #setArea} and {@link #release} if that succeeded, and {@link #endEdit} whatever the
 * edit did. Every call comes under the service's lock, so an implementation needs no
 * synchronization of its own.
 *
 * <p>Every method runs zonectl (or mount and umount) as a child process within the command time
 * limit; an {@link IOException} names the command, its subject and what to do. The service logs
 * and counts it; a mechanism never swallows one.
 */
public interface ZoneMechanism {

  /** What is zoned and how, for the service's log line at start. */
  String describe();

  /**
   * Settles what a crash or a dead NodeManager left, at start on an idle node: finishes an
   * interrupted operation and releases an area nobody uses any more, so that no job starts on a
   * file system that is full or zoned for nobody. A mechanism that cannot see such leftovers
   * while the file system is mounted does nothing.
   *
   * @return whether an area was released
   */
  boolean settleLeftovers() throws IOException;

  /**
   * Makes the file system ready for {@link #setArea} or {@link #release}. When this throws,
   * nothing was changed and neither runs, nor {@link #endEdit}.
   */
  void beginEdit() throws IOException;

  /**
   * Allows new blocks only in the area of {@code zoneClass}: the outer {@code outerSize} bytes
   * for temp, the rest for perm (seed 002 §4.2). Moves an area already set.
   *
   * @param outerSize the outer area's size in zonectl's syntax ({@code 40G})
   * @return the state zonectl reports afterwards
   */
  ZoneState setArea(ZoneClass zoneClass, String outerSize) throws IOException;

  /**
   * Gives back every block the area kept from new data; no area is set afterwards.
   *
   * @return the state zonectl reports afterwards
   */
  ZoneState release() throws IOException;

  /**
   * Gives the file system back to the node after an edit that {@link #beginEdit} began, whether
   * the edit succeeded or not. When this throws, containers on this node fail until an
   * operator repairs what the message names.
   */
  void endEdit() throws IOException;

  /**
   * What only a mechanism that changes the area while the file system stays mounted offers:
   * growing the area while jobs write (the monitor) and the usage a disk-usage profile records.
   * Empty for a mechanism that edits the file system offline.
   */
  Optional<OnlineArea> online();
}
