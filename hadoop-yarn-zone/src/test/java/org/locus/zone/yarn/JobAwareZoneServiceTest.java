package org.locus.zone.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
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
      assertEquals(Map.of("ZoneSwitches", 1L, "ZoneReleases", 1L, "ZoneFailures", 1L),
          published);
    } finally {
      service.stop();
      DefaultMetricsSystem.shutdown();
    }
  }

  @Test
  void theServiceHasTheNameToConfigure() {
    startService();
    assertEquals("locus_zone", service.getName());
    assertTrue(service.getMetaData().remaining() == 0);
  }
}
