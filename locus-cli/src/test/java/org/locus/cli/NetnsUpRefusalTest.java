package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.Test;
import org.locus.netns.ClusterLayout;

/**
 * {@code cluster up --netns} refuses bad input with one line before creating anything. Starts
 * no cluster; about a second.
 */
class NetnsUpRefusalTest {
  private static final File DIR = new File("target/test-clusters/netns-refusal")
      .getAbsoluteFile();

  @Test
  void unknownLinkRateIsRefusedNamingTheOption() {
    FileUtil.fullyDelete(DIR);
    CliRun run = CliRun.inProcess("cluster", "up", "--netns", "--dir", DIR.getPath(),
        "--link", "10mbps");
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains("unknown rate '10mbps' for --link"), run.err());
    assertFalse(new ClusterLayout(DIR).ledgerFile().exists(), "nothing was created");
  }

  @Test
  void anUnknownMetadataLayoutIsRefusedNamingTheOptionAndTheChoices() {
    FileUtil.fullyDelete(DIR);
    CliRun run = CliRun.inProcess("cluster", "up", "--netns", "--dir", DIR.getPath(),
        "--metadata", "hashed");
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains("unknown metadata layout 'hashed' for --metadata; one of"
        + " master, sdp, fatbtree"), run.err());
    assertFalse(new ClusterLayout(DIR).ledgerFile().exists(), "nothing was created");
  }

  @Test
  void anUnknownDiskModelIsRefusedNamingTheOptionAndTheChoices() {
    FileUtil.fullyDelete(DIR);
    CliRun run = CliRun.inProcess("cluster", "up", "--netns", "--dir", DIR.getPath(),
        "--disk-model", "smr");
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains("unknown disk model 'smr' for --disk-model; one of none, hdd"),
        run.err());
    assertFalse(new ClusterLayout(DIR).ledgerFile().exists(), "nothing was created");
  }

  @Test
  void theDiskModelNeedsNetns() {
    FileUtil.fullyDelete(DIR);
    CliRun run = CliRun.inProcess("cluster", "up", "--dir", DIR.getPath(), "--disk-model", "hdd");
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains("--disk-model needs --netns"), run.err());
  }

  @Test
  void theMetadataLayoutNeedsNetns() {
    FileUtil.fullyDelete(DIR);
    CliRun run = CliRun.inProcess("cluster", "up", "--dir", DIR.getPath(), "--metadata", "sdp");
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains("--metadata needs --netns"), run.err());
  }

  @Test
  void moreNodesThanMemoryAllowsAreRefusedStatingTheLimit() throws Exception {
    assumeTrue(NetnsResources.root(), "the root check comes first");
    FileUtil.fullyDelete(DIR);
    CliRun run = CliRun.inProcess("cluster", "up", "--netns", "--dir", DIR.getPath(),
        "--nodes", "60", "--node-memory", "4g");
    assertEquals(1, run.exitCode(), run.toString());
    assertTrue(run.err().matches("(?s).*--nodes 60 does not fit: \\d+ MiB available, .*"
        + "so at most \\d+ nodes.*"), run.err());
    assertFalse(new ClusterLayout(DIR).ledgerFile().exists(), "nothing was created");
  }

  @Test
  void daemonUsersRefuseADirectoryBelowOneOthersMayWrite() throws Exception {
    assumeTrue(NetnsResources.root(), "the root check comes first");
    File dir = new File("/tmp/locus-netns-refusal-" + ProcessHandle.current().pid());
    try {
      CliRun run = CliRun.inProcess("cluster", "up", "--netns", "--dir", dir.getPath(),
          "--daemon-users");
      assertEquals(1, run.exitCode(), run.toString());
      assertTrue(run.err().contains("--daemon-users: /tmp is writable by its group or by"
          + " others, and the privileged helper refuses mount points below such a directory"),
          run.err());
      assertFalse(new ClusterLayout(dir).ledgerFile().exists(), "nothing was created");
    } finally {
      FileUtil.fullyDelete(dir);
    }
  }

  @Test
  void daemonUsersNeedNetns() {
    FileUtil.fullyDelete(DIR);
    CliRun run = CliRun.inProcess("cluster", "up", "--dir", DIR.getPath(), "--daemon-users");
    assertEquals(2, run.exitCode(), run.toString());
    assertTrue(run.err().contains("--daemon-users needs --netns"), run.err());
  }
}
