package org.locus.energy.policy;

/**
 * Seed 000 §4.3.2 automatic mode: the drive goes to standby after a fixed idle timeout set once
 * with {@code hdparm -S}; the manager only models it.
 */
public class FixedTimeoutPolicy implements SpinDownPolicy {
  private final long timeoutMillis;

  public FixedTimeoutPolicy(long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
  }

  @Override
  public long standbyAfterMillis() {
    return timeoutMillis;
  }

  @Override
  public long standbyAfterMillisForDrive() {
    return timeoutMillis;
  }

  @Override
  public boolean managerIssuesSpinDown() {
    return false;
  }

  @Override
  public void observeIdleGap(long millis) {
    // a fixed timeout learns nothing
  }
}
