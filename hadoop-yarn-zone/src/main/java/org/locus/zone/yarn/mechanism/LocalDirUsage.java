package org.locus.zone.yarn.mechanism;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Disk usage of the local-dir file system as {@code df} reports it (total minus free), less
 * the blocks the zone hold file keeps (they are zonectl's, not a job's, and they change when
 * the area moves or grows): the quantity seed 002 §4.1 samples.
 */
public final class LocalDirUsage implements UsageSource {

  private final Path mountPoint;
  private final Zonectl zonectl;

  public LocalDirUsage(Path mountPoint, Zonectl zonectl) {
    this.mountPoint = mountPoint;
    this.zonectl = zonectl;
  }

  @Override
  public long usedBytes() throws IOException {
    FileStore store = Files.getFileStore(mountPoint);
    ZoneState state = zonectl.holdStatus(mountPoint.toString());
    return store.getTotalSpace() - store.getUnallocatedSpace()
        - state.heldBlocks() * state.blockSize();
  }
}
