package org.locus.boost.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.Test;

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
}
