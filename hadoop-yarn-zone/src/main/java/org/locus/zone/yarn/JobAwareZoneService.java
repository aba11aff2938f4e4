package org.locus.zone.yarn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.locus.zone.yarn.mechanism.ApplicationNameLookup;
import org.locus.zone.yarn.mechanism.CommandRunner;
import org.locus.zone.yarn.mechanism.JobProfiles;
import org.locus.zone.yarn.mechanism.LocalDirRemounter;
import org.locus.zone.yarn.mechanism.OfflineBitmapMechanism;
import org.locus.zone.yarn.mechanism.OnlineArea;
import org.locus.zone.yarn.mechanism.OnlineHoldMechanism;
import org.locus.zone.yarn.mechanism.ProfileRecorder;
import org.locus.zone.yarn.mechanism.ResourceManagerNameLookup;
import org.locus.zone.yarn.mechanism.ZoneCommands;
import org.locus.zone.yarn.mechanism.ZoneMechanism;
import org.locus.zone.yarn.mechanism.ZoneState;
import org.locus.zone.yarn.mechanism.Zonectl;
import org.locus.zone.yarn.policy.JobZoneClassifier;
import org.locus.zone.yarn.policy.NodeActivity;
import org.locus.zone.yarn.policy.ZoneClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job-aware zone placement on a NodeManager (seed 002 §4.2): when an application starts on an
 * idle node, the local-dir file system's allowed area becomes the outer area (temp jobs) or
 * the inner area (perm jobs) of the application's class; when the last application on the node
 * stops, and when the service stops, the reservation is released.
 *
 * <p>This class is the policy: which class an application gets and when the area changes. How
 * the area is made is a {@link ZoneMechanism}, chosen once from {@link ZoneConfigKeys#METHOD}
 * (docs/zone.md): {@link OnlineHoldMechanism} keeps the local-dir file system mounted and holds
 * the other area's free blocks with a file, {@link OfflineBitmapMechanism} edits the block
 * bitmaps of the unmounted device (around an unmount when {@link ZoneConfigKeys#REMOUNT} is
 * set). With an online mechanism, a monitor may grow an area that runs short (seed §4.3), and
 * each application's disk-usage profile may be recorded so that the next run of its name is
 * classified by it (seed §4.1).
 *
 * <p>Lifecycle. Configured as {@code yarn.nodemanager.aux-services.locus_zone.class}. The
 * NodeManager calls {@link #initializeApplication} only for applications that name this
 * service in their launch context, but {@link #initializeContainer} and
 * {@link #stopApplication} for every application; so an application counts as started on this
 * node at whichever of the first two comes first. The calls arrive on the NodeManager's event
 * dispatcher thread, and the switch runs there, bounded by
 * {@link ZoneConfigKeys#COMMAND_TIMEOUT_MS}: that holds back the container's localization
 * until the local-dir file system is mounted again.
 *
 * <p>Failures never reach the NodeManager: each is logged with what to do, counted
 * ({@link #failures()}; metrics2 source {@code LocusZone}), and leaves the area as it was
 * (zonectl writes nothing when it refuses; the file system is mounted again whatever zonectl
 * did).
 */
public class JobAwareZoneService extends AuxiliaryService {

  /** The name to configure in {@code yarn.nodemanager.aux-services}. */
  public static final String SERVICE_NAME = "locus_zone";

  private static final Logger LOG = LoggerFactory.getLogger(JobAwareZoneService.class);

  private final ZoneHookMetrics metrics = new ZoneHookMetrics();

  /** Guards everything below; every zone change runs under it. */
  private final Object lock = new Object();
  private final NodeActivity activity = new NodeActivity();
  private ApplicationNameLookup names;
  private boolean enabled;
  private JobZoneClassifier classifier;
  private JobProfiles profiles;
  private double profileBeta;
  private Zonectl zonectl;
  private ZoneMechanism mechanism;
  /** The area the monitor and the profile recorder work on; null when neither runs. */
  private OnlineArea onlineArea;
  private String device;
  private String outerSize;
  private long monitorIntervalMs;
  private String monitorExpandBelow;
  private ProfileRecorder recorder;
  private long profileIntervalMs;
  private final Map<ApplicationId, String> recordedNames = new HashMap<>();
  private ScheduledExecutorService timer;
  private long samples;
  /** The class of the area this service last set, or null when none is set. */
  private ZoneClass currentClass;

  public JobAwareZoneService() {
    this(null);
  }

  /** With a given name lookup instead of the ResourceManager's (tests). */
  JobAwareZoneService(ApplicationNameLookup names) {
    super(SERVICE_NAME);
    this.names = names;
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    metrics.register();
    try {
      enabled = bool(conf, ZoneConfigKeys.ENABLED, ZoneConfigKeys.ENABLED_DEFAULT);
      if (enabled) {
        configure(conf);
      }
    } catch (IllegalArgumentException e) {
      enabled = false;
      metrics.failures.incr();
      LOG.error("Zone placement is off on this node: {}", e.getMessage());
    }
    LOG.info("Zone placement {}", enabled
        ? "on for " + device + " (outer area " + outerSize + ", " + mechanism.describe() + ")"
        : "off (" + ZoneConfigKeys.ENABLED + "=false or misconfigured)");
    super.serviceInit(conf);
  }

  private void configure(Configuration conf) {
    device = required(conf, ZoneConfigKeys.DEVICE);
    outerSize = required(conf, ZoneConfigKeys.OUTER_SIZE);
    ZoneClass defaultClass = ZoneClass.parse(
        conf.get(ZoneConfigKeys.DEFAULT_CLASS, ZoneConfigKeys.DEFAULT_CLASS_DEFAULT),
        ZoneConfigKeys.DEFAULT_CLASS);
    classifier = JobZoneClassifier.fromEntries(
        // an empty value is no rules (getStrings gives null for it; found by locus-fuzz)
        conf.getTrimmedStrings(ZoneConfigKeys.JOB_CLASSES, ZoneConfigKeys.JOB_CLASSES_DEFAULT),
        defaultClass, ZoneConfigKeys.JOB_CLASSES);
    long timeoutMs = number(conf, ZoneConfigKeys.COMMAND_TIMEOUT_MS,
        ZoneConfigKeys.COMMAND_TIMEOUT_MS_DEFAULT);
    if (timeoutMs <= 0) {
      throw new IllegalArgumentException(
          ZoneConfigKeys.COMMAND_TIMEOUT_MS + " must be positive, got " + timeoutMs);
    }
    ZoneCommands commands = commands(conf);
    String stateDir = conf.getTrimmed(ZoneConfigKeys.STATE_DIR);
    if (commands.viaHelper() && stateDir != null && !stateDir.isEmpty()) {
      LOG.warn("{} is not passed through the privileged helper; its configuration's "
          + "zonectl.state-dir decides (docs/security.md)", ZoneConfigKeys.STATE_DIR);
    }
    Map<String, String> env = stateDir == null || stateDir.isEmpty() || commands.viaHelper()
        ? Map.of() : Map.of("ZONECTL_STATE_DIR", stateDir);
    CommandRunner runner = new CommandRunner(Duration.ofMillis(timeoutMs), env);
    zonectl = new Zonectl(commands, runner);
    String profileDir = conf.getTrimmed(ZoneConfigKeys.PROFILE_DIR);
    if (profileDir != null && !profileDir.isEmpty()) {
      try {
        profiles = new JobProfiles(Path.of(profileDir));
      } catch (InvalidPathException e) { // a NUL in the value
        throw new IllegalArgumentException(ZoneConfigKeys.PROFILE_DIR + " is not a path: "
            + e.getReason());
      }
      profileBeta = fraction(conf, ZoneConfigKeys.PROFILE_BETA,
          ZoneConfigKeys.PROFILE_BETA_DEFAULT);
    }
    String method = conf.getTrimmed(ZoneConfigKeys.METHOD, ZoneConfigKeys.METHOD_DEFAULT);
    mechanism = chooseMechanism(conf, method, commands, runner);
    configureOnlineParts(conf, "auto".equals(method));
    if (names == null) {
      names = new ResourceManagerNameLookup(conf, number(conf,
          ZoneConfigKeys.RM_LOOKUP_TIMEOUT_MS, ZoneConfigKeys.RM_LOOKUP_TIMEOUT_MS_DEFAULT));
    }
  }

  /** The hook's command vectors: directly, or through the privileged helper. */
  private static ZoneCommands commands(Configuration conf) {
    ZoneCommands.Mode mode = ZoneCommands.Mode.parse(conf.getTrimmed(ZoneConfigKeys.HELPER_MODE,
        ZoneConfigKeys.HELPER_MODE_DEFAULT), ZoneConfigKeys.HELPER_MODE);
    String helper = conf.getTrimmed(ZoneConfigKeys.HELPER_PATH,
        ZoneConfigKeys.HELPER_PATH_DEFAULT);
    if (!helper.startsWith("/")) {
      throw new IllegalArgumentException(ZoneConfigKeys.HELPER_PATH + " must be an absolute "
          + "path (the sudoers line names the helper by it), got '" + helper + "'");
    }
    return new ZoneCommands(mode, helper,
        conf.get(ZoneConfigKeys.ZONECTL, ZoneConfigKeys.ZONECTL_DEFAULT),
        argv(conf, ZoneConfigKeys.UMOUNT_COMMAND, ZoneConfigKeys.UMOUNT_COMMAND_DEFAULT),
        argv(conf, ZoneConfigKeys.MOUNT_COMMAND, ZoneConfigKeys.MOUNT_COMMAND_DEFAULT));
  }

  /**
   * The one place the mechanism is chosen: hold, bitmap, or auto, which holds when zonectl
   * accepts the mount point and else uses bitmaps (docs/zone.md).
   */
  private ZoneMechanism chooseMechanism(Configuration conf, String method,
      ZoneCommands commands, CommandRunner runner) {
    switch (method) {
    case "hold":
      return new OnlineHoldMechanism(zonectl, required(conf, ZoneConfigKeys.MOUNT_POINT));
    case "bitmap":
      return bitmaps(conf, commands, runner);
    case "auto":
      String mount = conf.getTrimmed(ZoneConfigKeys.MOUNT_POINT);
      if (mount != null && !mount.isEmpty()) {
        try {
          OnlineHoldMechanism.probe(zonectl, mount);
          return new OnlineHoldMechanism(zonectl, mount);
        } catch (IOException e) {
          LOG.info("No online hold on {} ({}); the area is set offline with bitmaps", mount,
              e.getMessage());
        }
      }
      return bitmaps(conf, commands, runner);
    default:
      throw new IllegalArgumentException(ZoneConfigKeys.METHOD + " must be hold, bitmap or "
          + "auto, got '" + method + "'");
    }
  }

  private OfflineBitmapMechanism bitmaps(Configuration conf, ZoneCommands commands,
      CommandRunner runner) {
    LocalDirRemounter remounter =
        bool(conf, ZoneConfigKeys.REMOUNT, ZoneConfigKeys.REMOUNT_DEFAULT)
            ? new LocalDirRemounter(commands, device,
                required(conf, ZoneConfigKeys.MOUNT_POINT), runner)
            : null;
    return new OfflineBitmapMechanism(zonectl, device, remounter);
  }

  /**
   * The monitor and profile recording: parts that work while jobs write, so they need the
   * online area of the mechanism ({@link #onlineAreaFor}).
   */
  private void configureOnlineParts(Configuration conf, boolean auto) {
    monitorIntervalMs = number(conf, ZoneConfigKeys.MONITOR_INTERVAL_MS,
        ZoneConfigKeys.MONITOR_INTERVAL_MS_DEFAULT);
    if (monitorIntervalMs < 0) {
      throw new IllegalArgumentException(ZoneConfigKeys.MONITOR_INTERVAL_MS
          + " must not be negative, got " + monitorIntervalMs);
    }
    if (monitorIntervalMs > 0) {
      onlineArea = onlineAreaFor(ZoneConfigKeys.MONITOR_INTERVAL_MS + " > 0", "",
          "no monitor", auto);
      if (onlineArea == null) {
        monitorIntervalMs = 0;
      } else {
        monitorExpandBelow = required(conf, ZoneConfigKeys.MONITOR_EXPAND_BELOW);
      }
    }
    if (bool(conf, ZoneConfigKeys.PROFILE_RECORD, ZoneConfigKeys.PROFILE_RECORD_DEFAULT)) {
      String part = ZoneConfigKeys.PROFILE_RECORD + "=true";
      String andDirectory = " and " + ZoneConfigKeys.PROFILE_DIR;
      OnlineArea area = onlineAreaFor(part, andDirectory, "no profiles are recorded", auto);
      if (area == null) {
        return;
      }
      if (profiles == null) {
        throw new IllegalArgumentException(part + " needs the hold method ("
            + ZoneConfigKeys.METHOD + ", " + ZoneConfigKeys.MOUNT_POINT + ")" + andDirectory);
      }
      profileIntervalMs = number(conf, ZoneConfigKeys.PROFILE_INTERVAL_MS,
          ZoneConfigKeys.PROFILE_INTERVAL_MS_DEFAULT);
      long settle = number(conf, ZoneConfigKeys.PROFILE_SETTLE_MS,
          ZoneConfigKeys.PROFILE_SETTLE_MS_DEFAULT);
      if (profileIntervalMs <= 0 || settle < 0) {
        throw new IllegalArgumentException(ZoneConfigKeys.PROFILE_INTERVAL_MS
            + " must be positive and " + ZoneConfigKeys.PROFILE_SETTLE_MS + " not negative");
      }
      recorder = new ProfileRecorder(profiles, area.usage(), settle);
      onlineArea = area;
    }
  }

  /**
   * The online area a part asked for by {@code part} works on. The offline mechanism has none:
   * when {@code auto} chose it on this node the part is off (null, with a warning); when the
   * bitmap method was configured, asking for the part is a configuration error.
   *
   * @param alsoNeeds what else the part needs, for the error (empty or " and KEY")
   * @param whenOff what is lost when the part is off, for the warning
   */
  private OnlineArea onlineAreaFor(String part, String alsoNeeds, String whenOff,
      boolean auto) {
    return mechanism.online().orElseGet(() -> {
      if (!auto) {
        throw new IllegalArgumentException(part + " needs the hold method ("
            + ZoneConfigKeys.METHOD + ", " + ZoneConfigKeys.MOUNT_POINT + ")" + alsoNeeds);
      }
      LOG.warn("{} but the area is set offline (no hold on this node): {}", part, whenOff);
      return null;
    });
  }

  private static String required(Configuration conf, String key) {
    String v = conf.getTrimmed(key);
    if (v == null || v.isEmpty()) {
      throw new IllegalArgumentException(key + " is not set; it is required when "
          + ZoneConfigKeys.ENABLED + "=true (see docs/zone.md, \"The NodeManager hook\")");
    }
    return v;
  }

  /*
   * Strict parsers: Hadoop's getBoolean reads any word but true as false, and getLong and
   * getDouble throw a NumberFormatException that does not name the key (found by locus-fuzz).
   */
  private static boolean bool(Configuration conf, String key, boolean dflt) {
    String v = conf.getTrimmed(key);
    if (v == null) {
      return dflt;
    }
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
    }
    return Boolean.parseBoolean(v);
  }

  private static long number(Configuration conf, String key, long dflt) {
    String v = conf.getTrimmed(key);
    try {
      return v == null ? dflt : Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number of milliseconds, got '"
          + v + "'");
    }
  }

  private static double fraction(Configuration conf, String key, double dflt) {
    String v = conf.getTrimmed(key);
    double x;
    try {
      x = v == null ? dflt : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      x = Double.NaN;
    }
    if (!(x >= 0 && x <= 1)) {
      throw new IllegalArgumentException(key + " must be a number from 0 to 1, got '" + v + "'");
    }
    return x;
  }

  private static List<String> argv(Configuration conf, String key, String dflt) {
    String[] parts = conf.getTrimmedStrings(key, dflt.split(","));
    if (parts.length == 0) {
      throw new IllegalArgumentException(key + " is empty; it needs at least the program");
    }
    return Arrays.asList(parts);
  }

  @Override
  protected void serviceStart() throws Exception {
    if (enabled) {
      synchronized (lock) {
        settleLeftovers();
      }
      if (monitorIntervalMs > 0 || recorder != null) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "locus-zone-timer");
          t.setDaemon(true);
          return t;
        });
      }
      if (monitorIntervalMs > 0) {
        timer.scheduleWithFixedDelay(this::monitorTick, monitorIntervalMs, monitorIntervalMs,
            TimeUnit.MILLISECONDS);
      }
      if (recorder != null) {
        timer.scheduleWithFixedDelay(this::profileTick, profileIntervalMs, profileIntervalMs,
            TimeUnit.MILLISECONDS);
      }
    }
    super.serviceStart();
  }

  /** The node is idle at start: the mechanism settles what a crash or a dead NodeManager left. */
  private void settleLeftovers() {
    try {
      if (mechanism.settleLeftovers()) {
        metrics.releases.incr();
      }
    } catch (IOException e) {
      metrics.failures.incr();
      LOG.error("Could not check what a previous NodeManager left ({}): {}",
          mechanism.describe(), e.getMessage());
    }
  }

  /** Seed 002 §4.3 online, expand only: a held area that runs short gets room. */
  private void monitorTick() {
    synchronized (lock) {
      if (currentClass != null) {
        growIfShort();
      }
    }
  }

  /** One monitor check of the held area. Caller holds the lock. */
  private void growIfShort() {
    try {
      String line = onlineArea.growIfShort(monitorExpandBelow);
      if (line.startsWith("action=expand")) {
        metrics.expansions.incr();
        LOG.info("Held area on {} grew: {}", onlineArea.mountPoint(), line);
      }
    } catch (IOException e) {
      metrics.failures.incr();
      LOG.error("Zone monitor on {} failed: {}", onlineArea.mountPoint(), e.getMessage());
    }
  }

  private void profileTick() {
    synchronized (lock) {
      try {
        samples++;
        for (Path written : recorder.tick(System.currentTimeMillis())) {
          LOG.info("Recorded the disk-usage profile {}", written);
        }
      } catch (IOException e) {
        metrics.failures.incr();
        LOG.warn("Disk-usage profile sample on {} failed: {}", onlineArea.mountPoint(),
            e.getMessage());
      }
    }
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    applicationActive(context.getApplicationId());
  }

  @Override
  public void initializeContainer(ContainerInitializationContext context) {
    applicationActive(context.getContainerId().getApplicationAttemptId().getApplicationId());
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    ApplicationId app = context.getApplicationId();
    synchronized (lock) {
      if (recorder != null) {
        recorder.stop(app, System.currentTimeMillis());
        recordedNames.remove(app);
      }
      if (activity.stop(app) && enabled && currentClass != null) {
        release("the last application, " + app + ", stopped");
      }
    }
  }

  @Override
  public ByteBuffer getMetaData() {
    return ByteBuffer.allocate(0);
  }

  @Override
  protected void serviceStop() throws Exception {
    if (timer != null) {
      timer.shutdownNow();
      timer.awaitTermination(30, TimeUnit.SECONDS);
    }
    synchronized (lock) {
      if (enabled && currentClass != null) {
        release("the NodeManager is stopping");
      }
      if (names != null) {
        names.close();
      }
    }
    metrics.unregister();
    super.serviceStop();
  }

  private void applicationActive(ApplicationId app) {
    synchronized (lock) {
      boolean firstOnIdleNode = activity.start(app);
      if (!enabled) {
        return;
      }
      if (recorder != null && !recordedNames.containsKey(app)) {
        String recorded = names.nameOf(app);
        recordedNames.put(app, recorded);
        try {
          recorder.start(app, recorded, System.currentTimeMillis());
        } catch (IOException e) {
          metrics.failures.incr();
          LOG.warn("No disk-usage profile for {}: {}", app, e.getMessage());
        }
      }
      if (!firstOnIdleNode) {
        return;
      }
      String name = recordedNames.containsKey(app) ? recordedNames.get(app) : names.nameOf(app);
      if (name == null) {
        LOG.warn("No name for {}; it gets the default class {} ({})", app,
            classifier.defaultClass().word(), ZoneConfigKeys.DEFAULT_CLASS);
      }
      ZoneClass zoneClass = classOf(app, name);
      if (zoneClass == currentClass) {
        LOG.info("{} ({}) starts on an idle node; the {} area is already set", app, name,
            zoneClass.word());
        return;
      }
      LOG.info("{} ({}) starts on an idle node: {} area on {}", app, name, zoneClass.word(),
          device);
      change("set the " + zoneClass.word() + " area for " + app,
          () -> mechanism.setArea(zoneClass, outerSize));
    }
  }

  /** A measured profile of the name decides first, then the name map (seed 002 §4.1, §4.2). */
  private ZoneClass classOf(ApplicationId app, String name) {
    Path profile = profiles == null ? null : profiles.profileOf(name);
    if (profile != null) {
      try {
        ZoneClass measured = zonectl.classify(profile.toString(), profileBeta);
        LOG.info("{} ({}) is {} by its profile {}", app, name, measured.word(), profile);
        return measured;
      } catch (IOException e) {
        metrics.failures.incr();
        LOG.warn("Profile {} of {} not usable, classifying by name: {}", profile, app,
            e.getMessage());
      }
    }
    return classifier.classify(name);
  }

  private void release(String why) {
    LOG.info("Releasing the {} area on {}: {}", currentClass.word(), device, why);
    change("release the area", mechanism::release);
  }

  private interface ZoneChange {
    ZoneState apply() throws IOException;
  }

  /** Runs one change of the area through the mechanism; never throws. Caller holds the lock. */
  private void change(String what, ZoneChange zoneChange) {
    try {
      mechanism.beginEdit();
    } catch (IOException e) {
      metrics.failures.incr();
      LOG.error("Could not {} on {}: {}; nothing changed", what, device, e.getMessage());
      return;
    }
    try {
      ZoneState state = zoneChange.apply();
      if (state.isReserved()) {
        currentClass = ZoneClass.parse(state.zoneClass(), "zonectl's class field");
        metrics.switches.incr();
      } else {
        currentClass = null;
        metrics.releases.incr();
      }
      LOG.info("Zone of {} now: {}", device, state);
      if (state.isReserved() && monitorIntervalMs > 0) {
        // files written before the area was set may fill part of it: the job starts with
        // the room the monitor keeps, not only after its first check (a job writing faster
        // than the checks come would otherwise meet ENOSPC)
        growIfShort();
      }
    } catch (IOException | IllegalArgumentException e) {
      metrics.failures.incr();
      LOG.error("Could not {} on {}: {}", what, device, e.getMessage());
    } finally {
      try {
        mechanism.endEdit();
      } catch (IOException e) {
        metrics.failures.incr();
        LOG.error("The local-dir file system on {} is NOT back after the change, containers on "
            + "this node will fail until it is: {}", device, e.getMessage());
      }
    }
  }

  /** Number of times an area was set. */
  public long switches() {
    return metrics.switches.value();
  }

  /** Number of times a reservation was released. */
  public long releases() {
    return metrics.releases.value();
  }

  /** Number of disk-usage profile samples taken (attempted) so far. */
  public long profileSamples() {
    synchronized (lock) {
      return samples;
    }
  }

  /** Number of times the online monitor grew the held area. */
  public long expansions() {
    return metrics.expansions.value();
  }

  /** Number of failed zonectl, mount or umount runs and configuration errors. */
  public long failures() {
    return metrics.failures.value();
  }

  /** Whether the hook acts (enabled and configured correctly). */
  public boolean isActive() {
    return enabled;
  }
}
