package org.locus.zone.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.zone.yarn.mechanism.FakeCommands;
import org.slf4j.LoggerFactory;

/**
 * The service with the classifier and the idle rule, driven through the NodeManager's
 * auxiliary-service calls, against fake zonectl, mount and umount commands; application
 * names come from a map instead of the ResourceManager.
 */
class JobAwareZoneServiceTest {

  private static final String DEV = "/dev/sdz1";

  @TempDir
  Path dir;
  private FakeCommands fake;
  private Configuration conf;
  private final Map<ApplicationId, String> names = new HashMap<>();
  private JobAwareZoneService service;

  private final ApplicationId terasort = ApplicationId.newInstance(7, 1);
  private final ApplicationId teragen = ApplicationId.newInstance(7, 2);

  @BeforeEach
  void setUp() throws IOException {
    fake = new FakeCommands(dir);
    conf = new Configuration(false);
    conf.setBoolean(ZoneConfigKeys.ENABLED, true);
    conf.set(ZoneConfigKeys.HELPER_MODE, "direct");
    conf.set(ZoneConfigKeys.ZONECTL, fake.create("zonectl"));
    conf.set(ZoneConfigKeys.DEVICE, DEV);
    conf.set(ZoneConfigKeys.OUTER_SIZE, "16M");
    conf.set(ZoneConfigKeys.JOB_CLASSES, "^terasort=temp,^teragen=perm");
    conf.set(ZoneConfigKeys.DEFAULT_CLASS, "perm");
    names.put(terasort, "terasort-1g");
    names.put(teragen, "teragen-1g");
  }

  @AfterEach
  void tearDown() {
    if (service != null) {
      service.stop();
    }
  }

  private void startService() {
    service = new JobAwareZoneService(names::get);
    service.init(conf);
    service.start();
  }

  private void appStarts(ApplicationId app) {
    service.initializeApplication(
        new ApplicationInitializationContext("alice", app, ByteBuffer.allocate(0)));
  }

  private void appStops(ApplicationId app) {
    service.stopApplication(new ApplicationTerminationContext(app));
  }

  private static List<String> area(String cls) {
    return List.of("zonectl", "area", DEV, "--class", cls, "--outer", "16M", "-p");
  }

  private static List<String> release() {
    return List.of("zonectl", "release", DEV, "-p");
  }

  @Test
  void theFirstApplicationOnAnIdleNodeSetsTheAreaOfItsClass() throws IOException {
    startService();
    appStarts(terasort);
    assertEquals(List.of(area("temp")), fake.calls());
    assertEquals(1, service.switches());
  }

  @Test
  void aConcurrentApplicationDoesNotSwitchAndTheLastStopReleases() throws IOException {
    startService();
    appStarts(terasort);
    appStarts(teragen);
    appStops(terasort);
    assertEquals(List.of(area("temp")), fake.calls(), "switched while teragen still runs");
    appStops(teragen);
    assertEquals(List.of(area("temp"), release()), fake.calls());
    assertEquals(1, service.releases());
    assertEquals(0, service.failures());
  }

  @Test
  void theNextApplicationOnTheIdleNodeGetsItsOwnClass() throws IOException {
    startService();
    appStarts(terasort);
    appStops(terasort);
    appStarts(teragen);
    assertEquals(List.of(area("temp"), release(), area("perm")), fake.calls());
  }

  @Test
  void aContainerOfAnApplicationThatDidNotNameTheServiceCountsAsItsStart()
      throws IOException {
    startService();
    ContainerId container =
        ContainerId.newContainerId(ApplicationAttemptId.newInstance(terasort, 1), 1);
    service.initializeContainer(new ContainerInitializationContext("alice", container,
        Resource.newInstance(1024, 1), ContainerType.APPLICATION_MASTER));
    appStarts(terasort);
    assertEquals(List.of(area("temp")), fake.calls());
  }

  @Test
  void aMeasuredProfileOfTheNameDecidesBeforeTheNameMap() throws IOException {
    Path profiles = java.nio.file.Files.createDirectory(dir.resolve("profiles"));
    Path profile = profiles.resolve("terasort-1g.profile");
    java.nio.file.Files.writeString(profile, "0 1000\n10 9000\n20 9000\n");
    fake.answer("zonectl", "classify", "class=perm max=8000 after=8000 beta=0.1", "", 0);
    conf.set(ZoneConfigKeys.PROFILE_DIR, profiles.toString());
    startService();
    appStarts(terasort);
    assertEquals(List.of(List.of("zonectl", "classify", "--profile", profile.toString(),
        "--beta", "0.1", "-p"), area("perm")), fake.calls());
  }

  @Test
  void withoutAProfileTheNameMapDecides() throws IOException {
    conf.set(ZoneConfigKeys.PROFILE_DIR,
        java.nio.file.Files.createDirectory(dir.resolve("profiles")).toString());
    startService();
    appStarts(terasort);
    assertEquals(List.of(area("temp")), fake.calls());
  }

  @Test
  void anApplicationWithoutAKnownNameGetsTheDefaultClass() throws IOException {
    startService();
    appStarts(ApplicationId.newInstance(7, 3));
    assertEquals(List.of(area("perm")), fake.calls());
  }

  @Test
  void theStopOfAnApplicationNeverSeenHereReleasesNothing() throws IOException {
    startService();
    appStops(terasort);
    assertEquals(List.of(), fake.calls());
  }

  @Test
  void aRefusedSwitchIsCountedAndLeavesNothingToRelease() throws IOException {
    fake.answer("zonectl", "area", "", "zonectl: /dev/sdz1: device is mounted", 3);
    startService();
    appStarts(terasort);
    appStops(terasort);
    assertEquals(List.of(area("temp")), fake.calls());
    assertEquals(1, service.failures());
    assertEquals(0, service.switches());
  }

  @Test
  void stoppingTheServiceReleasesAnActiveArea() throws IOException {
    startService();
    appStarts(terasort);
    service.stop();
    assertEquals(List.of(area("temp"), release()), fake.calls());
  }

  @Test
  void withRemountTheEditRunsBetweenUnmountAndMount() throws IOException {
    conf.set(ZoneConfigKeys.METHOD, "bitmap");
    conf.setBoolean(ZoneConfigKeys.REMOUNT, true);
    conf.set(ZoneConfigKeys.MOUNT_POINT, "/data/nm-local");
    conf.set(ZoneConfigKeys.UMOUNT_COMMAND, fake.create("umount") + ",{mount-point}");
    conf.set(ZoneConfigKeys.MOUNT_COMMAND,
        fake.create("mount") + ",-o,noatime,{device},{mount-point}");
    startService();
    appStarts(terasort);
    appStops(terasort);
    List<String> umount = List.of("umount", "/data/nm-local");
    List<String> mount = List.of("mount", "-o", "noatime", DEV, "/data/nm-local");
    assertEquals(List.of(umount, area("temp"), mount, umount, release(), mount),
        fake.calls());
  }

  @Test
  void aFailedUnmountLeavesTheZoneAlone() throws IOException {
    conf.set(ZoneConfigKeys.METHOD, "bitmap");
    conf.setBoolean(ZoneConfigKeys.REMOUNT, true);
    conf.set(ZoneConfigKeys.MOUNT_POINT, "/data/nm-local");
    conf.set(ZoneConfigKeys.UMOUNT_COMMAND, fake.create("umount") + ",{mount-point}");
    conf.set(ZoneConfigKeys.MOUNT_COMMAND, fake.create("mount") + ",{device},{mount-point}");
    fake.answer("umount", null, "", "umount: /data/nm-local: target is busy.", 32);
    startService();
    appStarts(terasort);
    assertEquals(List.of(List.of("umount", "/data/nm-local")), fake.calls());
    assertEquals(1, service.failures());
  }

  @Test
  void theFileSystemIsMountedAgainWhenZonectlFails() throws IOException {
    conf.set(ZoneConfigKeys.METHOD, "bitmap");
    conf.setBoolean(ZoneConfigKeys.REMOUNT, true);
    conf.set(ZoneConfigKeys.MOUNT_POINT, "/data/nm-local");
    conf.set(ZoneConfigKeys.UMOUNT_COMMAND, fake.create("umount") + ",{mount-point}");
    conf.set(ZoneConfigKeys.MOUNT_COMMAND, fake.create("mount") + ",{device},{mount-point}");
    fake.answer("zonectl", "area", "", "zonectl: bad checksum", 8);
    startService();
    appStarts(terasort);
    assertEquals(List.of(List.of("umount", "/data/nm-local"), area("temp"),
        List.of("mount", DEV, "/data/nm-local")), fake.calls());
    assertEquals(1, service.failures());
  }

  private String helperSetuid() throws IOException {
    String helper = fake.create("locus-priv");
    conf.set(ZoneConfigKeys.HELPER_MODE, "setuid");
    conf.set(ZoneConfigKeys.HELPER_PATH, helper);
    return helper;
  }

  @Test
  void throughTheHelperTheHookRunsOnlyItsVerbsAroundTheRemount() throws IOException {
    helperSetuid();
    conf.set(ZoneConfigKeys.METHOD, "bitmap");
    conf.setBoolean(ZoneConfigKeys.REMOUNT, true);
    conf.set(ZoneConfigKeys.MOUNT_POINT, "/data/nm-local");
    conf.set(ZoneConfigKeys.STATE_DIR, "/var/lib/zonectl-ignored");
    startService();
    appStarts(terasort);
    appStops(terasort);
    List<String> umount = List.of("locus-priv", "umount", "/data/nm-local");
    List<String> mount = List.of("locus-priv", "mount", DEV, "/data/nm-local");
    assertEquals(List.of(umount, List.of("locus-priv", "area", DEV, "temp", "16M"), mount,
        umount, List.of("locus-priv", "release", DEV), mount), fake.calls());
    assertEquals(1, service.switches());
    assertEquals(1, service.releases());
  }

  @Test
  void throughTheHelperTheHoldIsItsVerbsOnTheMountPoint() throws IOException {
    helperSetuid();
    conf.set(ZoneConfigKeys.METHOD, "hold");
    conf.set(ZoneConfigKeys.MOUNT_POINT, MNT);
    startService();
    appStarts(terasort);
    appStops(terasort);
    assertEquals(List.of(List.of("locus-priv", "hold-status", MNT),
        List.of("locus-priv", "hold", MNT, "temp", "16M"),
        List.of("locus-priv", "hold-release", MNT)), fake.calls());
  }

  @Test
  void aProfileIsClassifiedByZonectlItselfEvenThroughTheHelper() throws Exception {
    helperSetuid();
    Path profiles = Files.createDirectories(dir.resolve("profiles"));
    Files.writeString(profiles.resolve("terasort-1g.profile"), "0 0\n1 100\n");
    conf.set(ZoneConfigKeys.PROFILE_DIR, profiles.toString());
    fake.answer("zonectl", "classify", "class=perm used_after=100 max_used=100", "", 0);
    startService();
    appStarts(terasort);
    assertEquals(List.of(List.of("zonectl", "classify", "--profile",
        profiles.resolve("terasort-1g.profile").toString(), "--beta", "0.1", "-p"),
        List.of("locus-priv", "area", DEV, "perm", "16M")), fake.calls());
  }

  @Test
  void aHelperRefusalIsAFailureAndChangesNothing() throws IOException {
    helperSetuid();
    fake.answer("locus-priv", "area", "", "locus-priv: refused (not listed): area: device "
        + DEV + " is not in zonectl.devices", 203);
    startService();
    appStarts(terasort);
    appStops(terasort);
    assertEquals(1, service.failures());
    assertEquals(0, service.switches());
    assertEquals(List.of(List.of("locus-priv", "area", DEV, "temp", "16M")), fake.calls(),
        "nothing to release after a refused switch");
  }

  @Test
  void anUnknownHelperModeOrARelativeHelperTurnsTheHookOff() throws IOException {
    conf.set(ZoneConfigKeys.HELPER_MODE, "root");
    startService();
    assertFalse(service.isActive());
    service.stop();
    conf.set(ZoneConfigKeys.HELPER_MODE, "sudo");
    conf.set(ZoneConfigKeys.HELPER_PATH, "locus-priv");
    startService();
    assertFalse(service.isActive());
    assertEquals(List.of(), fake.calls());
  }

  @Test
  void whenDisabledNothingRuns() throws IOException {
    conf.setBoolean(ZoneConfigKeys.ENABLED, false);
    startService();
    appStarts(terasort);
    appStops(terasort);
    assertFalse(service.isActive());
    assertEquals(List.of(), fake.calls());
  }

  @Test
  void aMissingDeviceTurnsTheHookOffInsteadOfStoppingTheNodeManager() throws IOException {
    conf.unset(ZoneConfigKeys.DEVICE);
    startService();
    appStarts(terasort);
    assertFalse(service.isActive());
    assertEquals(1, service.failures());
    assertEquals(List.of(), fake.calls());
  }

  @Test
  void switchesReleasesAndFailuresArePublishedAsMetrics() throws Exception {
    DefaultMetricsSystem.initialize("ZoneTest");
    try {
      startService();
      appStarts(terasort);
      appStops(terasort);
      fake.answer("zonectl", "area", "", "zonectl: /dev/sdz1: device is mounted", 3);
      appStarts(teragen);
      MetricsCollectorImpl collector = new MetricsCollectorImpl();
      DefaultMetricsSystem.instance().getSource("LocusZone").getMetrics(collector, true);
      Map<String, Number> published = new HashMap<>();
      for (MetricsRecord record : collector.getRecords()) {
        for (AbstractMetric metric : record.metrics()) {
          published.put(metric.name(), metric.value());
        }
      }
      assertEquals(Map.of("ZoneSwitches", 1L, "ZoneReleases", 1L, "ZoneExpansions", 0L,
          "ZoneFailures", 1L), published);
    } finally {
      service.stop();
      DefaultMetricsSystem.shutdown();
    }
  }

  // ---- the online hold ----

  private static final String MNT = "/data/nm-local";

  private static List<String> hold(String cls) {
    return List.of("zonectl", "hold", MNT, "--class", cls, "--outer", "16M", "-p");
  }

  private static List<String> holdStatus() {
    return List.of("zonectl", "hold-status", MNT, "-p");
  }

  private static List<String> holdRelease() {
    return List.of("zonectl", "hold-release", MNT, "-p");
  }

  private void holdMethod() throws IOException {
    conf.set(ZoneConfigKeys.METHOD, "hold");
    conf.set(ZoneConfigKeys.MOUNT_POINT, MNT);
    conf.setBoolean(ZoneConfigKeys.REMOUNT, true);
    conf.set(ZoneConfigKeys.UMOUNT_COMMAND, fake.create("umount") + ",{mount-point}");
    conf.set(ZoneConfigKeys.MOUNT_COMMAND, fake.create("mount") + ",{device},{mount-point}");
  }

  @Test
  void withTheHoldTheAreaMovesOnTheMountedFileSystemWithoutUnmounting() throws IOException {
    holdMethod();
    startService();
    appStarts(terasort);
    appStops(terasort);
    appStarts(teragen);
    assertEquals(List.of(holdStatus(), hold("temp"), holdRelease(), hold("perm")),
        fake.calls());
    assertEquals(2, service.switches());
  }

  @Test
  void autoHoldsWhenZonectlAcceptsTheMountPoint() throws IOException {
    conf.set(ZoneConfigKeys.MOUNT_POINT, MNT);
    startService();
    appStarts(terasort);
    assertEquals(List.of(holdStatus(), holdStatus(), hold("temp")), fake.calls());
  }

  @Test
  void autoEditsBitmapsWhenZonectlRefusesTheMountPoint() throws IOException {
    conf.set(ZoneConfigKeys.MOUNT_POINT, MNT);
    fake.answer("zonectl", "hold-status", "", "zonectl: /data/nm-local: not an ext4 mount", 2);
    startService();
    appStarts(terasort);
    assertEquals(List.of(holdStatus(), area("temp")), fake.calls());
  }

  @Test
  void aHoldLeftByAPreviousNodeManagerIsReleasedAtStart() throws IOException {
    holdMethod();
    fake.answer("zonectl", "hold-status", "state=held class=perm start=4096 end=16384 "
        + "block_size=4096 free_blocks=10 held_blocks=4000", "", 0);
    startService();
    assertEquals(List.of(holdStatus(), holdRelease()), fake.calls());
  }

  @Test
  void anInterruptedHoldIsRecoveredAtStart() throws IOException {
    holdMethod();
    fake.answer("zonectl", "hold-status", "state=interrupted class=none start=0 end=0 "
        + "block_size=4096 free_blocks=0 held_blocks=14000", "", 0);
    fake.answer("zonectl", "hold-recover", "state=held class=temp start=0 end=4096 "
        + "block_size=4096 free_blocks=10 held_blocks=4000", "", 0);
    startService();
    assertEquals(List.of(holdStatus(), List.of("zonectl", "hold-recover", MNT, "-p"),
        holdRelease()), fake.calls());
  }

  @Test
  void theMonitorGrowsTheHeldAreaWhileAJobRuns() throws Exception {
    monitorGrowingEveryCheck(20);
    startService();
    appStarts(terasort);
    // the first check comes with the switch; a second one only from the monitor's timer
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (service.expansions() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(service.expansions() >= 2, "no monitor check within 30 s after the switch");
    assertTrue(fake.calls().stream().filter(monitorCheck()::equals).count() >= 2);
  }

  @Test
  void anAreaJustSetIsCheckedAtOnceSoTheJobStartsWithTheRoomTheMonitorKeeps()
      throws IOException {
    monitorGrowingEveryCheck(3_600_000);
    startService();
    appStarts(terasort);
    assertEquals(List.of(holdStatus(), hold("temp"), monitorCheck()), fake.calls());
    assertEquals(1, service.expansions());
  }

  /** The hold method with the monitor every {@code intervalMs}; every check grows the area. */
  private void monitorGrowingEveryCheck(long intervalMs) throws IOException {
    holdMethod();
    conf.setLong(ZoneConfigKeys.MONITOR_INTERVAL_MS, intervalMs);
    conf.set(ZoneConfigKeys.MONITOR_EXPAND_BELOW, "1G");
    fake.answer("zonectl", "hold-monitor", "action=expand start=0 end=8192 free_blocks=262144",
        "", 0);
  }

  private static List<String> monitorCheck() {
    return List.of("zonectl", "hold-monitor", MNT, "--expand-below", "1G", "--count", "1", "-p");
  }

  @Test
  void theMonitorNeedsTheHold() throws IOException {
    conf.set(ZoneConfigKeys.METHOD, "bitmap");
    conf.setLong(ZoneConfigKeys.MONITOR_INTERVAL_MS, 20);
    conf.set(ZoneConfigKeys.MONITOR_EXPAND_BELOW, "1G");
    startService();
    assertFalse(service.isActive());
    assertEquals(1, service.failures());
  }

  @Test
  void autoWithoutAHoldRunsWithoutTheMonitor() throws IOException {
    conf.set(ZoneConfigKeys.MOUNT_POINT, MNT);
    conf.setLong(ZoneConfigKeys.MONITOR_INTERVAL_MS, 20);
    conf.set(ZoneConfigKeys.MONITOR_EXPAND_BELOW, "1G");
    fake.answer("zonectl", "hold-status", "", "zonectl: /data/nm-local: not an ext4 mount", 2);
    startService();
    appStarts(terasort);
    assertTrue(service.isActive());
    assertEquals(List.of(holdStatus(), area("temp")), fake.calls());
  }

  @Test
  void anUnknownMethodTurnsTheHookOff() throws IOException {
    conf.set(ZoneConfigKeys.METHOD, "magic");
    startService();
    assertFalse(service.isActive());
  }

  @Test
  void aValueThatIsNotANumberTurnsTheHookOffNamingTheKey() throws IOException {
    // Hadoop's getLong threw 'For input string: "soon"' without the key (locus-fuzz)
    conf.set(ZoneConfigKeys.COMMAND_TIMEOUT_MS, "soon");
    LogCapturer logs = LogCapturer.captureLogs(LoggerFactory.getLogger(JobAwareZoneService.class));
    startService();
    logs.stopCapturing();
    assertFalse(service.isActive());
    assertTrue(logs.getOutput().contains("Zone placement is off on this node: "
        + ZoneConfigKeys.COMMAND_TIMEOUT_MS + " must be a whole number"), logs.getOutput());
  }

  @Test
  void anEnabledValueThatIsNotABooleanTurnsTheHookOffNamingTheKey() throws IOException {
    // Hadoop's getBoolean read 'yes' as false: off without a word (locus-fuzz)
    conf.set(ZoneConfigKeys.ENABLED, "yes");
    LogCapturer logs = LogCapturer.captureLogs(LoggerFactory.getLogger(JobAwareZoneService.class));
    startService();
    logs.stopCapturing();
    assertFalse(service.isActive());
    assertTrue(logs.getOutput().contains(ZoneConfigKeys.ENABLED + " must be true or false"),
        logs.getOutput());
  }

  @Test
  void aProfileDirectoryThatIsNotAPathTurnsTheHookOffNamingTheKey() throws IOException {
    // Path.of threw InvalidPathException ('Nul character not allowed') without the key
    conf.set(ZoneConfigKeys.PROFILE_DIR, "/var/lib/\0profiles");
    LogCapturer logs = LogCapturer.captureLogs(LoggerFactory.getLogger(JobAwareZoneService.class));
    startService();
    logs.stopCapturing();
    assertFalse(service.isActive());
    assertTrue(logs.getOutput().contains(ZoneConfigKeys.PROFILE_DIR + " is not a path"),
        logs.getOutput());
  }

  @Test
  void anEmptyJobClassListMeansNoNameRules() throws IOException {
    // conf.getStrings gave null for it and the classifier threw a NullPointerException
    conf.set(ZoneConfigKeys.JOB_CLASSES, "");
    startService();
    assertTrue(service.isActive());
  }

  @Test
  void theServiceHasTheNameToConfigure() {
    startService();
    assertEquals("locus_zone", service.getName());
    assertTrue(service.getMetaData().remaining() == 0);
  }
}
