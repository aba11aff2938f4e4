package org.locus.zone.yarn.mechanism;

import java.io.IOException;

/** Bytes in use on the local-dir file system, as a job's disk-usage profile counts them. */
public interface UsageSource {

  long usedBytes() throws IOException;
}
