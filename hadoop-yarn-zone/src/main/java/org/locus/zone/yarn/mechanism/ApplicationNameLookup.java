package org.locus.zone.yarn.mechanism;

import org.apache.hadoop.yarn.api.records.ApplicationId;

/**
 * Finds an application's name, which the NodeManager's auxiliary-service contexts do not
 * carry. Returns {@code null} when the name cannot be found in time.
 */
public interface ApplicationNameLookup extends AutoCloseable {

  String nameOf(ApplicationId app);

  @Override
  default void close() {
  }
}
