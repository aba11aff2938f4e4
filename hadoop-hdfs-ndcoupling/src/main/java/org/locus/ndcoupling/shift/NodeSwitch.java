package org.locus.ndcoupling.shift;

import java.io.IOException;

/**
 * How a gear shift switches a node's DataNode off and on: a command per node on a real cluster
 * ({@link CommandNodeSwitch}), the node's daemon process on a netns cluster, a mini cluster's
 * DataNode in tests.
 */
public interface NodeSwitch {
  /** Stops the DataNode on {@code host}; returns once it has stopped. */
  void off(String host) throws IOException;

  /** Starts the DataNode on {@code host}; returns once its process runs (not yet registered). */
  void on(String host) throws IOException;
}
