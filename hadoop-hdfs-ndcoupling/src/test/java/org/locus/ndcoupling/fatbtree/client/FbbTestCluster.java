package org.locus.ndcoupling.fatbtree.client;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.fatbtree.FatBtreeOptions;
import org.locus.ndcoupling.fatbtree.service.IndexNodeService;

/**
 * The fixture of the {@code locusfbt://} tests: an FBB cluster in this JVM. A federated mini
 * cluster of N partitions (nameservices ns1..nsN, one DataNode, replication 1) and N Fat-Btree
 * index nodes with ids 1..N, each with its own RPC server and page directory, talking to each
 * other over Hadoop RPC as the index nodes inside a coupled cluster's NameNodes do. (A mini
 * cluster gives all its NameNodes one configuration, so the nodes run beside them rather than
 * in them through {@code FatBtreeNameNodePlugin}, which {@code FatBtreeNameNodePluginTest}
 * covers; the file system sees the same index servers either way.)
 */
final class FbbTestCluster implements AutoCloseable {
  /** Small pages (6 keys, 4 children), so a few hundred paths make a tree several high. */
  private static final FatBtreeOptions SMALL_PAGES = new FatBtreeOptions(6, 4, false, 64);

  private final File base;
  private final MiniDFSCluster dfs;
  private final IndexNodeService[] index;
  private final Configuration conf;

  private FbbTestCluster(File base, MiniDFSCluster dfs, IndexNodeService[] index,
      Configuration conf) {
    this.base = base;
    this.dfs = dfs;
    this.index = index;
    this.conf = conf;
  }

  /** Starts {@code partitions} partitions and index nodes with their data under {@code base}. */
  static FbbTestCluster start(File base, int partitions) throws IOException {
    FileUtil.fullyDelete(base);
    Configuration dfsConf = new Configuration();
    dfsConf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(base, "dfs").getAbsolutePath());
    dfsConf.setInt("dfs.replication", 1);
    // Hadoop's contract tests write files with 1 KB blocks, as its own HDFS contract allows
    dfsConf.setInt("dfs.namenode.fs-limits.min-block-size", 0);
    MiniDFSCluster dfs = null;
    IndexNodeService[] index = new IndexNodeService[partitions + 1];
    try {
      dfs = new MiniDFSCluster.Builder(dfsConf)
          .nnTopology(MiniDFSNNTopology.simpleFederatedTopology(partitions))
          .numDataNodes(1).build();
      dfs.waitActive();
      Configuration conf = new Configuration(dfs.getConfiguration(0));
      for (int k = 1; k <= partitions; k++) {
        // hdfs://nsK through the nameservice's rpc-address, as a coupled cluster's clients do
        conf.set("dfs.client.failover.proxy.provider.ns" + k,
            "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
      }
      conf.setInt("ipc.client.connect.max.retries", 1);
      conf.setBoolean("fs." + FatBtreeFileSystem.SCHEME + ".impl.disable.cache", true);
      conf.set("fs.AbstractFileSystem." + FatBtreeFileSystem.SCHEME + ".impl",
          FatBtreeFs.class.getName());
      Map<Integer, InetSocketAddress> peers = new TreeMap<>();
      for (int k = 1; k <= partitions; k++) {
        index[k] = IndexNodeService.bind(conf, k, new InetSocketAddress("127.0.0.1", 0));
        peers.put(k, index[k].address());
      }
      for (int k = 1; k <= partitions; k++) {
        index[k].open(peers, indexDir(base, k).toPath(), SMALL_PAGES, List.of());
      }
      StringBuilder list = new StringBuilder();
      peers.forEach((k, a) -> list.append(list.length() == 0 ? "" : ",").append(k).append('=')
          .append(a.getHostString()).append(':').append(a.getPort()));
      conf.set(NdCouplingConfigKeys.INDEX_PEERS, list.toString());
      return new FbbTestCluster(base, dfs, index, conf);
    } catch (IOException | RuntimeException e) {
      for (IndexNodeService s : index) {
        if (s != null) {
          s.close();
        }
      }
      if (dfs != null) {
        dfs.shutdown();
      }
      throw e;
    }
  }

  private static File indexDir(File base, int k) {
    return new File(base, "index-" + k);
  }

  /** Index node {@code k}'s page directory. */
  File indexDir(int k) {
    return indexDir(base, k);
  }

  /** The clients' configuration: the partitions, the index servers, the scheme. */
  Configuration conf() {
    return new Configuration(conf);
  }

  /** A new {@code locusfbt://nsK/} client entering at index node {@code entry}. */
  FatBtreeFileSystem fbb(int entry) throws IOException {
    return (FatBtreeFileSystem) FileSystem.newInstance(
        URI.create(FatBtreeFileSystem.SCHEME + "://ns" + entry + "/"), conf);
  }

  /** A new plain client of partition {@code k}: the reference the tests compare with. */
  FileSystem hdfs(int k) throws IOException {
    return FileSystem.newInstance(URI.create("hdfs://ns" + k + "/"), conf);
  }

  /** A new resolver at index node {@code k}. */
  FatBtreePartitionResolver resolver(int k) throws IOException {
    return FatBtreePartitionResolver.connect(conf, k);
  }

  @Override
  public void close() {
    for (IndexNodeService s : index) {
      if (s != null) {
        s.close();
      }
    }
    dfs.shutdown();
  }
}
