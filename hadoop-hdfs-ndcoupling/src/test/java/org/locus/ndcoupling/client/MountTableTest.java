package org.locus.ndcoupling.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

class MountTableTest {
  private static final String TABLE = "# three partitions\nversion 4\n/ ns1\n/user  ns2\n"
      + "\t/data\tns3  \n\n/data-x ns1\n";

  @Test
  void everyPathBelongsToTheLongestMountPointAboveIt() {
    MountTable table = MountTable.parse(TABLE, "t");
    assertEquals(4, table.version());
    assertEquals("ns3", table.partitionOf("/data"));
    assertEquals("ns3", table.partitionOf("/data/a/b"));
    assertEquals("ns1", table.partitionOf("/data-x/a"), "/data-x is not below /data");
    assertEquals("ns1", table.partitionOf("/database"));
    assertEquals("ns2", table.partitionOf("/user/root"));
    assertEquals("ns1", table.partitionOf("/"));
    assertEquals("ns1", table.partitionOf("/elsewhere/deep"));
    assertEquals("/data", table.mountPointOf("/data/a"));
    assertEquals("/", table.mountPointOf("/tmp"));
  }

  @Test
  void theTextFormReadsBackEqual() {
    MountTable table = MountTable.parse(TABLE, "t");
    assertEquals(table, MountTable.parse(table.format(), "formatted"));
  }

  @Test
  void theDefaultDealsTopLevelDirectoriesOverThePartitions() {
    MountTable table = MountTable.defaultFor(List.of("ns1", "ns2", "ns3"),
        List.of("user", "tmp", "data", "apps"));
    assertEquals(Map.of("/", "ns1", "/user", "ns1", "/tmp", "ns2", "/data", "ns3", "/apps",
        "ns1"), table.mounts());
    assertEquals(0, table.version());
  }

  @Test
  void changesMakeTheNextVersionAndRefuseWhatWouldBreakTheTable() {
    MountTable table = MountTable.parse(TABLE, "t");
    MountTable added = table.withMount("/logs", "ns2");
    assertEquals(5, added.version());
    assertEquals("ns2", added.partitionOf("/logs/today"));
    assertEquals(6, added.withoutMount("/logs").version());
    assertEquals("ns1", added.withoutMount("/logs").partitionOf("/logs/today"));
    assertEquals("ns3", table.withMount("/", "ns3").rootPartition());
    assertMessage(() -> table.withMount("/user", "ns3"),
        "/user is already mounted on ns2; remove it first");
    assertMessage(() -> table.withMount("/data/inner", "ns2"),
        "mount point /data/inner is inside mount point /data");
    assertMessage(() -> table.withMount("/", "ns1").withMount("/da", "ns2")
        .withMount("/da/ta/x", "ns3"), "mount point /da/ta/x is inside mount point /da");
    assertMessage(() -> table.withoutMount("/"), "/ cannot be removed");
    assertMessage(() -> table.withoutMount("/nothing"), "/nothing is not a mount point");
    assertMessage(() -> table.withMount("relative", "ns2"),
        "mount point 'relative' is not absolute");
  }

  @Test
  void badInputIsRefusedNamingTheSourceTheLineAndTheFault() {
    Map<String, String> faults = Map.ofEntries(
        Map.entry("version 1\n/ ns1\n/a ns2 extra\n",
            "f line 3: expected 'PATH PARTITION' or 'version N', got 3 words: '/a ns2 extra'"),
        Map.entry("version 1\n/ ns1\n/a\n", "f line 3: expected 'PATH PARTITION'"),
        Map.entry("/ ns1\n", "f: no 'version N' line"),
        Map.entry("version 1\nversion 2\n/ ns1\n", "f line 2: a second 'version' line"),
        Map.entry("version -1\n/ ns1\n", "f line 1: version must be an integer 0..1000000000,"
            + " got '-1'"),
        Map.entry("version x\n/ ns1\n", "f line 1: version must be an integer"),
        Map.entry("version 1\n/a ns2\n", "f: no partition for / (add a line '/ ns1'"),
        Map.entry("version 1\n/ ns1\n/a ns2\n/a ns3\n",
            "f line 4: /a is mounted twice (also on line 3)"),
        Map.entry("version 1\n/ ns1\na ns2\n", "f line 3: mount point 'a' is not absolute"),
        Map.entry("version 1\n/ ns1\n/a/ ns2\n", "f line 3: mount point '/a/' ends with /"),
        Map.entry("version 1\n/ ns1\n/a//b ns2\n", "f line 3: mount point '/a//b' has an"
            + " empty component"),
        Map.entry("version 1\n/ ns1\n/a/../b ns2\n", "f line 3: mount point '/a/../b' has a"
            + " '..' component"),
        Map.entry("version 1\n/ ns1\n/a/./b ns2\n", "has a '.' component"),
        Map.entry("version 1\n/ ns1\n/a:b ns2\n", "f line 3: mount point '/a:b' contains ':'"),
        Map.entry("version 1\n/ ns1\n/a hdfs://ns2/a\n", "f line 3: partition 'hdfs://ns2/a'"
            + " is not a nameservice id"),
        Map.entry("version 1\n/ ns1\n/a ns2\n/a/b ns3\n",
            "f: mount point /a/b is inside mount point /a"));
    faults.forEach((text, message) -> assertMessage(() -> MountTable.parse(text, "f"),
        message));
  }

  @Test
  void randomInputIsEitherATableOrOneClearErrorNeverAnotherException() {
    Random random = new Random(20261127);
    String[] pieces = {"/", "/a", "/a/b", "/b", "a", "ns1", "ns2", "ns-3", "version", "1", "7",
        " ", "  ", "\t", "\n", "\r\n", "#", "//", "..", ".", ":", "-", "x", "\u0000", "\u00e9",
        "99999999999", "/a/", "hdfs://ns1", "/a b"};
    int tables = 0;
    for (int round = 0; round < 20_000; round++) {
      StringBuilder text = new StringBuilder();
      if (random.nextBoolean()) {
        text.append("version ").append(random.nextInt(5)).append('\n');
      }
      int length = random.nextInt(16);
      for (int i = 0; i < length; i++) {
        text.append(pieces[random.nextInt(pieces.length)]);
      }
      String input = random.nextInt(4) == 0 ? mutate(TABLE, random) : text.toString();
      try {
        MountTable table = MountTable.parse(input, "fuzz");
        tables++;
        assertEquals(table, MountTable.parse(table.format(), "again"), input);
        assertTrue(table.mounts().containsKey("/"), input);
        for (String path : table.mounts().keySet()) {
          assertEquals(path, table.mountPointOf(path), input);
        }
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage().startsWith("fuzz"), "names the source: " + e.getMessage());
        assertTrue(e.getMessage().length() < 400, "one short line: " + e.getMessage());
      }
    }
    assertTrue(tables > 100, "the fuzzer also makes valid tables: " + tables);
  }

  private static String mutate(String text, Random random) {
    char[] chars = text.toCharArray();
    for (int i = 0; i < 1 + random.nextInt(3); i++) {
      chars[random.nextInt(chars.length)] = (char) (32 + random.nextInt(96));
    }
    return new String(chars);
  }

  private static void assertMessage(org.junit.jupiter.api.function.Executable action,
      String expected) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, action);
    assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: "
        + e.getMessage());
  }
}
