package org.locus.ndcoupling.fatbtree.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.locus.ndcoupling.fatbtree.IndexEntry;
import org.locus.ndcoupling.fatbtree.TreeVerifier;
import org.locus.ndcoupling.fatbtree.VerificationReport;
import org.locus.ndcoupling.fatbtree.client.FatBtreePartitionResolver;

/**
 * The FBB client's view of the index (issue 43 item 3): three index nodes over RPC, each the
 * index node of its own partition, a directory per partition assigned to it and files
 * registered below from a resolver at another node.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FatBtreePartitionResolverTest {

  private static final int NODES = 3;
  private static final int FILES_PER_PARTITION = 40;

  @TempDir
  Path dir;

  private RpcIndexCluster cluster;
  private final List<FatBtreePartitionResolver> resolvers = new ArrayList<>();
  private final TreeMap<String, Integer> reference = new TreeMap<>();

  @BeforeEach
  void assignAndRegister() throws IOException {
    cluster = RpcIndexCluster.start(dir, NODES);
    for (int node = 0; node < NODES; node++) {
      resolvers.add(FatBtreePartitionResolver.at(cluster.conf(), cluster.peers().get(node)));
    }
    FatBtreePartitionResolver at0 = resolvers.get(0);
    for (int p = 0; p < NODES; p++) {
      at0.assignSubtree("/bench/node" + p, p);
      reference.put("/bench/node" + p, p);
    }
    for (int i = 0; i < FILES_PER_PARTITION; i++) {
      for (int p = 0; p < NODES; p++) {
        String file = "/bench/node" + p + "/f" + i;
        at0.register(file, p);
        reference.put(file, p);
      }
    }
  }

  @AfterEach
  void stop() {
    resolvers.forEach(FatBtreePartitionResolver::close);
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void keepsAnAssignedSubtreesLeavesOnItsPartitionsNode() throws IOException {
    for (var e : reference.entrySet()) {
      assertEquals(e.getValue(), resolvers.get(1).leafNodeOf(e.getKey()), e.getKey());
    }
    VerificationReport report = TreeVerifier.verify(cluster.nodes());
    assertTrue(report.isSound(), report.toString());
  }

  @Test
  void resolvesEveryPathFromEveryNode() throws IOException {
    for (FatBtreePartitionResolver resolver : resolvers) {
      for (var e : reference.entrySet()) {
        assertEquals(OptionalInt.of(e.getValue()), resolver.partitionOf(e.getKey()), e.getKey());
      }
      assertEquals(OptionalInt.of(2), resolver.partitionOf("/bench/node2/not/registered"));
      assertEquals(OptionalInt.empty(), resolver.partitionOf("/elsewhere/file"));
      assertEquals(OptionalInt.empty(), resolver.entryOf("/bench/node2/not/registered"));
    }
  }

  @Test
  void listsADirectoryMergedFromLeavesOnEveryNodeInNameOrder() throws IOException {
    List<IndexEntry> listing = resolvers.get(2).list("/bench");
    assertEquals(List.of("/bench/node0", "/bench/node1", "/bench/node2"),
        listing.stream().map(e -> e.key().path()).toList());
    assertEquals(List.of(0, 1, 2), listing.stream().map(IndexEntry::owner).toList());
    List<String> files = resolvers.get(0).list("/bench/node1").stream()
        .map(e -> e.key().path()).toList();
    assertEquals(new ArrayList<>(reference.subMap("/bench/node1/", "/bench/node10").keySet()),
        files);
    assertEquals(reference.size(), resolvers.get(1).subtree("/bench").size());
  }

  @Test
  void aStoppedNodeLeavesEveryOtherPartitionAnswered() throws IOException {
    resolvers.remove(2).close();
    cluster.stop(2);
    for (FatBtreePartitionResolver resolver : resolvers) {
      for (var e : reference.entrySet()) {
        if (e.getValue() != 2) {
          assertEquals(OptionalInt.of(e.getValue()), resolver.partitionOf(e.getKey()),
              e.getKey());
        }
      }
    }
  }

  @Test
  void forgetsAnUnregisteredPath() throws IOException {
    assertTrue(resolvers.get(1).unregister("/bench/node0/f3"));
    assertEquals(OptionalInt.empty(), resolvers.get(2).entryOf("/bench/node0/f3"));
    assertEquals(OptionalInt.of(0), resolvers.get(2).partitionOf("/bench/node0/f3"));
  }
}
