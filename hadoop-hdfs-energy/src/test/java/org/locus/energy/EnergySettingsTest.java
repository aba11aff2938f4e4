package org.locus.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.Test;
import org.locus.energy.datanode.offload.WriteOffloadingDatasetFactory;
import org.locus.energy.disk.DiskPowerProfile;
import org.locus.kit.LocusMiniCluster;

/** Every energy key is parsed and checked once; a bad value is an error naming the key. */
class EnergySettingsTest {

  private static String errorFor(String key, String value) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    return assertThrows(IllegalArgumentException.class, () -> EnergySettings.from(conf))
        .getMessage();
  }

  @Test
  void anUnknownChoiceNamesTheKeyAndTheAllowedValues() {
    assertEquals("locus.energy.manual.command must be one of standby, sleep; got 'slep'",
        errorFor(EnergyConfigKeys.MANUAL_COMMAND, "slep"));
    assertEquals("locus.energy.spindown.policy must be one of fixed, history; got 'histroy'",
        errorFor(EnergyConfigKeys.SPINDOWN_POLICY, "histroy"));
    assertEquals("locus.energy.disk.backend must be one of simulated, hdparm; got 'sata'",
        errorFor(EnergyConfigKeys.BACKEND, "sata"));
  }

  @Test
  void numbersOutOfRangeAndNonBooleansNameTheKeyAndTheRange() {
    assertEquals("locus.energy.poll.interval.ms must be from 1 to 60000; got 0",
        errorFor(EnergyConfigKeys.POLL_INTERVAL_MS, "0"));
    assertEquals("locus.energy.disk.idle.watts must be from 0.0 to 1000.0; got -4.6",
        errorFor(EnergyConfigKeys.IDLE_WATTS, "-4.6"));
    assertEquals("locus.energy.predict.wake must be true or false; got 'yes'",
        errorFor(EnergyConfigKeys.PREDICT_WAKE, "yes"));
    assertEquals("locus.energy.disk.spindles.per.volume must list drive counts from 1 to 64,"
        + " one per volume; got '0'", errorFor(EnergyConfigKeys.SPINDLES_PER_VOLUME, "1,0"));
    assertTrue(errorFor(EnergyConfigKeys.REPLICA_DIR, "/data/b")
        .startsWith("dfs.replica.dir (seed 000 §4.3.2) is not read: list backup directories as"
            + " [ARCHIVE] entries of dfs.datanode.data.dir"));
  }

  @Test
  void powerCommandsGoThroughTheHelperUnderSudoByDefault() {
    EnergySettings settings = EnergySettings.from(new Configuration(false));
    assertEquals(EnergySettings.HelperMode.SUDO, settings.helperMode());
    assertEquals("/usr/local/sbin/locus-priv", settings.helperPath());
    assertEquals("locus.energy.helper.mode must be one of sudo, setuid, direct; got 'root'",
        errorFor(EnergyConfigKeys.HELPER_MODE, "root"));
    assertEquals("locus.energy.helper.path must be an absolute path (the sudoers line names "
        + "the helper by it), got 'locus-priv'", errorFor(EnergyConfigKeys.HELPER_PATH,
        "locus-priv"));
  }

  @Test
  void theOldSudoKeyStopsTheDataNodeAndNamesTheHelper() {
    String message = errorFor(EnergyConfigKeys.HDPARM_SUDO, "true");
    assertTrue(message.startsWith("locus.energy.hdparm.sudo is not read")
        && message.contains("locus.energy.helper.mode=sudo")
        && message.contains("docs/security.md"), message);
  }

  @Test
  void theWriteOffloadingKeysAreCheckedToo() throws Exception {
    assertEquals("locus.energy.offload.writes must be true or false; got 'yes'",
        errorFor(EnergyConfigKeys.OFFLOAD_WRITES, "yes"));
    assertEquals("locus.energy.offload.max.staged.mb must be from 1 to 1073741824; got 0",
        errorFor(EnergyConfigKeys.OFFLOAD_MAX_STAGED_MB, "0"));
    EnergySettings settings = EnergySettings.from(new Configuration(false));
    assertFalse(settings.offloadWrites(), "off by default");
    assertEquals(4096L << 20, settings.offloadMaxStagedBytes());
    // the factory checks its keys before it builds anything, so no DataNode is needed here
    Configuration conf = new Configuration(false);
    conf.set(EnergyConfigKeys.OFFLOAD_INNER_FACTORY, "java.lang.String");
    IOException e = assertThrows(IOException.class,
        () -> new WriteOffloadingDatasetFactory().newInstance(null, null, conf));
    assertEquals("locus.energy.offload.inner.factory must name an FsDatasetSpi.Factory other"
        + " than this one; got java.lang.String", e.getMessage());
    conf.set(EnergyConfigKeys.OFFLOAD_INNER_FACTORY, "org.example.NoSuchFactory");
    e = assertThrows(IOException.class,
        () -> new WriteOffloadingDatasetFactory().newInstance(null, null, conf));
    assertTrue(e.getMessage().startsWith("locus.energy.offload.inner.factory names no class"),
        e.getMessage());
    conf.unset(EnergyConfigKeys.OFFLOAD_INNER_FACTORY);
    conf.set(EnergyConfigKeys.OFFLOAD_MAX_STAGED_MB, "-1");
    e = assertThrows(IOException.class,
        () -> new WriteOffloadingDatasetFactory().newInstance(null, null, conf));
    assertEquals("locus.energy.offload.max.staged.mb must be from 1 to 1073741824; got -1",
        e.getMessage());
  }

  @Test
  void theFastNodeKeysAreCheckedToo() {
    assertEquals("locus.energy.fast.node must be true or false; got 'on'",
        errorFor(EnergyConfigKeys.FAST_NODE, "on"));
    assertEquals("locus.energy.awake.dir must be an absolute HDFS path, got 'awake'",
        errorFor(EnergyConfigKeys.AWAKE_DIR, "awake"));
    assertEquals("locus.energy.awake.dir and locus.energy.wake.request.dir must be different"
        + " directories; both are '/system/locus-energy/wake'",
        errorFor(EnergyConfigKeys.AWAKE_DIR, "/system/locus-energy/wake"));
    EnergySettings settings = EnergySettings.from(new Configuration(false));
    assertTrue(settings.fastNode(), "on by default, as the seed does it");
    assertEquals("/system/locus-energy/awake", settings.awakeDir());
  }

  @Test
  void unsetKeysGiveTheDatasheetWattagesAndTheDocumentedDefaults() {
    EnergySettings settings = EnergySettings.from(new Configuration(false));
    assertEquals(DiskPowerProfile.BARRACUDA_7200_14, settings.driveProfile());
    assertEquals(10_000, settings.predictLeadMillis(), "lead = the drive's spin-up time");
    assertEquals(EnergySettings.ManualCommand.STANDBY, settings.manualCommand());
    assertEquals(3, EnergySettings.from(conf(EnergyConfigKeys.SPINDLES_PER_VOLUME, "1,3"))
        .spindles(1));
  }

  @Test
  void theSpinUpBoundIsThreeSpinUpTimesByDefaultAndNeverBelowOne() {
    assertEquals(30_000, EnergySettings.from(new Configuration(false)).spinUpTimeoutMillis());
    assertEquals(6_000, EnergySettings.from(conf(EnergyConfigKeys.SPINUP_MS, "2000"))
        .spinUpTimeoutMillis());
    assertEquals(1_000, EnergySettings.from(conf(EnergyConfigKeys.SPINUP_MS, "0"))
        .spinUpTimeoutMillis(), "at least a second");
    assertEquals("locus.energy.spinup.timeout.ms must be from 10000 (the drive's spin-up time,"
        + " locus.energy.disk.spinup.ms) to 600000; got 5000",
        errorFor(EnergyConfigKeys.SPINUP_TIMEOUT_MS, "5000"));
    assertEquals("locus.energy.spinup.timeout.ms must be from 1 to 600000; got 600001",
        errorFor(EnergyConfigKeys.SPINUP_TIMEOUT_MS, "600001"));
  }

  /** Costs about 5 s: a NameNode starts, the DataNode does not. */
  @Test
  void aBadEnergyValueStopsTheDataNodesStartUpWithTheMessage() {
    LocusMiniCluster.Builder builder = LocusMiniCluster.builder(
            new File("target/test-clusters/bad-energy-key"))
        .nodes(1)
        .volumes(StorageType.DISK, StorageType.ARCHIVE)
        .set("dfs.datanode.plugins", "org.locus.energy.datanode.BackupDiskPowerManager")
        .set(EnergyConfigKeys.BACKEND, "simulated")
        .set(EnergyConfigKeys.MANUAL_COMMAND, "slep");
    Exception e = assertThrows(Exception.class, () -> builder.start().close());
    StringBuilder chain = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      chain.append(t).append('\n');
    }
    assertTrue(chain.toString().contains(
        "locus.energy.manual.command must be one of standby, sleep; got 'slep'"), chain::toString);
  }

  private static Configuration conf(String key, String value) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    return conf;
  }
}
