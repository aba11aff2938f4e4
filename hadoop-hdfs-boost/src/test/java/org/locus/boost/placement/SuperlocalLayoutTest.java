package org.locus.boost.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.Test;
import org.locus.boost.BoostConfigKeys;

/** The SUPERLOCAL layout's excess choice: one REPLICATED replica, the rest DISK. No cluster. */
class SuperlocalLayoutTest {
  private final SuperlocalLayout layout = SuperlocalLayout.from(new Configuration(false));

  @Test
  void aSecondReplicatedReplicaIsTheExcessNotTheDiskOne() {
    assertEquals(List.of(StorageType.NVDIMM), layout.excessTypes((short) 2,
        List.of(StorageType.NVDIMM, StorageType.NVDIMM, StorageType.DISK)));
  }

  @Test
  void aSurplusDiskReplicaIsTheExcessWhenTheReplicatedOneIsAlone() {
    assertEquals(List.of(StorageType.DISK), layout.excessTypes((short) 2,
        List.of(StorageType.DISK, StorageType.NVDIMM, StorageType.DISK)));
  }

  @Test
  void aBlockThatMatchesTheLayoutHasNoExcess() {
    assertEquals(List.of(), layout.excessTypes((short) 3,
        List.of(StorageType.NVDIMM, StorageType.DISK, StorageType.DISK)));
  }

  @Test
  void aCopyCountThatIsNotANumberIsRefusedNamingTheKey() {
    // conf.getInt threw 'For input string: "two"' without the key (locus-fuzz)
    Configuration conf = new Configuration(false);
    conf.set(BoostConfigKeys.REPLICATED_COPIES, "two");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SuperlocalLayout.from(conf));
    assertEquals(BoostConfigKeys.REPLICATED_COPIES + " = 'two' is not a whole number; a"
        + " REPLICATED volume keeps 2 to 32767 copies of a block", e.getMessage());
  }
}
