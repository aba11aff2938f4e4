package org.locus.zone.yarn.policy;

import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;

/**
 * The idle rule: the zone area of a node is switched only when an application starts on an
 * idle node, and released only when the last active application stops. An application that
 * starts while others run writes into whatever area the first one chose; moving the area
 * under running containers would split their temporary data across both areas and, with a
 * remount, pull the file system from under them.
 *
 * <p>Not thread safe; the service calls it under its own lock.
 */
public final class NodeActivity {

  private final Set<ApplicationId> active = new HashSet<>();

  /**
   * Records that an application is active on this node.
   *
   * @return true if the node was idle before (so the caller may switch the area), false if the
   *     application was already known or others are active
   */
  public boolean start(ApplicationId app) {
    boolean wasIdle = active.isEmpty();
    return active.add(app) && wasIdle;
  }

  /**
   * Records that an application stopped.
   *
   * @return true if it was active and the node is idle now (so the caller may release)
   */
  public boolean stop(ApplicationId app) {
    return active.remove(app) && active.isEmpty();
  }

  public boolean isIdle() {
    return active.isEmpty();
  }

  public int activeCount() {
    return active.size();
  }
}
