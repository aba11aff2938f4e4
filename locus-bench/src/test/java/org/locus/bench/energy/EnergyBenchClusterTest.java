package org.locus.bench.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.bench.energy.EnergyBenchCluster.Setup;
import org.locus.energy.accounting.DiskEnergy;

/**
 * An energy set-up's recipe on the embedded cluster: every node's primary and backup disk
 * accounted in this JVM, and the scratch space kept on primaries.
 */
class EnergyBenchClusterTest {
  @Test
  void anEmbeddedSetUpAccountsForEveryDiskAndKeepsScratchOnPrimaries(@TempDir File dir)
      throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (EnergyBenchCluster bench = EnergyBenchCluster.embedded(dir, Setup.ENERGY, 256 * 1024,
        60_000, new PrintStream(err, true, StandardCharsets.UTF_8))) {
      Map<String, DiskEnergy> accounts = bench.accounts();
      assertEquals(bench.disks(), accounts.size(), accounts.keySet().toString());
      assertEquals(EnergyBenchCluster.NODES,
          accounts.values().stream().filter(DiskEnergy::backup).count(), accounts.toString());
      assertEquals(HdfsConstants.HOT_STORAGE_POLICY_NAME,
          bench.fileSystem().getStoragePolicy(new Path("/tmp")).getName());
    }
    assertEquals("", err.toString(StandardCharsets.UTF_8));
  }
}
