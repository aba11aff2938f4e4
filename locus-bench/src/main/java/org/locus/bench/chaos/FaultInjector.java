package org.locus.bench.chaos;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.locus.netns.DaemonLauncher;
import org.locus.netns.DaemonRole;

/**
 * Carries a {@link ChaosSchedule} out on a running netns cluster: at each fault's time the
 * daemon's process is killed with SIGKILL (a crash: no shutdown hook runs), and at its restart
 * time it is started again from its saved argument vector, as {@code locus cluster node
 * start} does. Every action is logged with its time and pid.
 */
public final class FaultInjector implements AutoCloseable {
  private static final long EXIT_WAIT_SECONDS = 30;

  /**
   * One thing the injector did.
   *
   * @param atMillis when, from the run's start
   * @param node the worker
   * @param role the daemon's role word
   * @param action {@code killed}, {@code restarted}, {@code not running} or {@code failed}
   * @param detail the pid, or what went wrong
   */
  public record Event(long atMillis, String node, String role, String action, String detail) {
  }

  private final DaemonLauncher launcher;
  private final PrintStream progress;
  private final List<Event> events = Collections.synchronizedList(new ArrayList<>());
  private final List<ChaosSchedule.Fault> down = Collections.synchronizedList(new ArrayList<>());
  private Thread thread;
  private long startNanos;

  public FaultInjector(DaemonLauncher launcher, PrintStream progress) {
    this.launcher = launcher;
    this.progress = progress;
  }

  /** Starts carrying {@code schedule} out, its times counted from {@code startNanos}. */
  public void start(ChaosSchedule schedule, long startNanos) {
    this.startNanos = startNanos;
    thread = new Thread(() -> run(schedule), "locus-chaos-faults");
    thread.setDaemon(true);
    thread.start();
  }

  private void run(ChaosSchedule schedule) {
    try {
      for (ChaosSchedule.Fault fault : schedule.faults()) {
        sleepUntil(fault.atMillis());
        kill(fault);
        sleepUntil(fault.restartMillis());
        restart(fault);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void kill(ChaosSchedule.Fault fault) {
    DaemonRole role = DaemonRole.of(fault.role());
    try {
      Optional<ProcessHandle> process = launcher.running(fault.node(), role);
      if (process.isEmpty()) {
        record(fault, "not running", "nothing to kill");
        return;
      }
      long pid = process.get().pid();
      down.add(fault);
      process.get().destroyForcibly();
      process.get().onExit().get(EXIT_WAIT_SECONDS, TimeUnit.SECONDS);
      record(fault, "killed", "pid " + pid);
    } catch (Exception e) {
      record(fault, "failed", "kill: " + e);
    }
  }

  private void restart(ChaosSchedule.Fault fault) {
    if (!down.remove(fault)) {
      return;
    }
    try {
      long pid = launcher.restart(fault.node(), DaemonRole.of(fault.role()));
      record(fault, "restarted", "pid " + pid);
    } catch (IOException e) {
      record(fault, "failed", "restart: " + e.getMessage());
    }
  }

  private void record(ChaosSchedule.Fault fault, String action, String detail) {
    Event event = new Event(sinceStart(), fault.node(), fault.role(), action, detail);
    events.add(event);
    progress.printf(Locale.ROOT, "[chaos %6.1f s] %s %s %s (%s)%n", event.atMillis() / 1000.0,
        fault.node(), fault.role(), action, detail);
  }

  /** @return what was done so far, in time order */
  public List<Event> events() {
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  /** Stops injecting and starts again any daemon still down. */
  @Override
  public void close() throws InterruptedException {
    if (thread != null) {
      thread.interrupt();
      thread.join(TimeUnit.SECONDS.toMillis(EXIT_WAIT_SECONDS + 10));
    }
    List<ChaosSchedule.Fault> left;
    synchronized (down) {
      left = List.copyOf(down);
    }
    for (ChaosSchedule.Fault fault : left) {
      restart(fault);
    }
  }

  private void sleepUntil(long atMillis) throws InterruptedException {
    long wait = atMillis - sinceStart();
    if (wait > 0) {
      Thread.sleep(wait);
    }
  }

  private long sinceStart() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
