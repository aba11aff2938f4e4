package org.locus.ndcoupling.namenode;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ServicePlugin;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.service.IndexNodeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hosts this NameNode's Fat-Btree index node (issue 43 item 2), listed in
 * {@code dfs.namenode.plugins}: on start it opens the node's page directory (formatting it when
 * empty), serves the node over Hadoop RPC at its own entry of
 * {@code locus.ndcoupling.index.peers} and registers its metrics source; on stop it stops all
 * three. The index lives beside the namespace rather than in it, so the NameNode itself is
 * unchanged. With {@code locus.ndcoupling.index.copies} the node keeps its ring predecessor's
 * copy and mirrors its own pages to its successor ({@code CopiedIndexNode}), and answers the
 * switch administration the gear shifter uses to switch its whole node off and back.
 *
 * <p>Without {@code locus.ndcoupling.index.node-id} it does nothing. A configuration error (a
 * missing or malformed key, a page directory of another node, a port in use) is logged with the
 * key or path at fault and the NameNode serves on without the index.
 */
public class FatBtreeNameNodePlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(FatBtreeNameNodePlugin.class);

  private IndexNodeService service;

  @Override
  public void start(Object nameNodeObject) {
    Configuration conf = ((NameNode) nameNodeObject).getConf();
    if (conf.getTrimmed(NdCouplingConfigKeys.INDEX_NODE_ID, "").isEmpty()) {
      LOG.info("Fat-Btree index off: {} is not set", NdCouplingConfigKeys.INDEX_NODE_ID);
      return;
    }
    try {
      Optional<IndexNodeService> started = IndexNodeService.start(conf, defaultDir(conf));
      service = started.orElse(null);
    } catch (IOException | RuntimeException e) {
      LOG.error("Fat-Btree index not started: {}", e.getMessage(), e);
    }
  }

  /** A {@code locus-index} directory beside the first name directory, or null if none. */
  private static Path defaultDir(Configuration conf) {
    Collection<URI> names = FSNamesystem.getNamespaceDirs(conf);
    if (names.isEmpty()) {
      return null;
    }
    return new File(names.iterator().next()).toPath().toAbsolutePath().getParent()
        .resolve("locus-index");
  }

  /** The running index node, or null when the index is off or failed to start (for tests). */
  public IndexNodeService service() {
    return service;
  }

  @Override
  public void stop() {
    if (service != null) {
      service.close();
      service = null;
    }
  }

  @Override
  public void close() {
    stop();
  }
}
