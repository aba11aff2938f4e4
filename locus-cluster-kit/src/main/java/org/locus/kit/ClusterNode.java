package org.locus.kit;

import java.util.List;

/**
 * One node of an embedded cluster: a DataNode and, with YARN, the NodeManager beside it.
 *
 * @param number 1-based node number
 * @param host the node's host name, which is also its loopback address
 * @param rack the node's network location, e.g. {@code /default-rack}
 * @param volumes the DataNode's volumes in configuration order
 */
public record ClusterNode(int number, String host, String rack, List<ClusterVolume> volumes) {
  public ClusterNode {
    volumes = List.copyOf(volumes);
  }
}
