package org.locus.bench.gears;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.locus.bench.run.ClusterRecipe;
import org.locus.bench.run.LinkBytes;
import org.locus.bench.run.NetnsCluster;
import org.locus.bench.run.NetnsDataNodeSwitch;
import org.locus.bench.run.NetnsWholeNodeSwitch;
import org.locus.bench.run.RunningNetnsCluster;
import org.locus.ndcoupling.NdCouplingConfigKeys;
import org.locus.ndcoupling.PartitionHomes;
import org.locus.ndcoupling.fatbtree.client.FatBtreeFileSystem;
import org.locus.ndcoupling.gear.GearPlan;
import org.locus.ndcoupling.gear.CoupledNodeKeys;
import org.locus.ndcoupling.gear.GearUpReport;
import org.locus.ndcoupling.gear.PartitionGearUps;
import org.locus.ndcoupling.rpc.GearProtocol;
import org.locus.ndcoupling.rpc.PartitionGearClients;
import org.locus.ndcoupling.fatbtree.store.ReturnShipped;
import org.locus.ndcoupling.shift.GearShifter;
import org.locus.ndcoupling.shift.IndexAdminHandOver;
import org.locus.ndcoupling.shift.IndexHandOver;
import org.locus.ndcoupling.shift.NodeSwitch;
import org.locus.ndcoupling.shift.PartitionCopies;
import org.locus.ndcoupling.shift.ZkfcHandOver;
import org.locus.netns.ClusterDirectory;
import org.locus.netns.ClusterLayout;
import org.locus.netns.HostCommand;
import org.locus.netns.MetadataLayout;
import org.locus.netns.PartitionedNamespace;

/**
 * The gear bench's netns cluster for one knob set and metadata layout: stock daemons with the
 * ndcoupling feature, a two-gear plan, and what a measured cycle needs — shift down, write many
 * one-block files, switch the returning nodes on, gear up, and wait until the NameNodes have
 * every block where it belongs.
 *
 * <p>With one NameNode the plan's gear 0 is the first half of the nodes. On coupled nodes
 * ({@code --metadata sdp}: a NameNode per node, partition nsK on nodeK) it is every other node
 * ({@link CoupledNodeKeys}), every partition's NameNode runs the gears for its own block pool,
 * and a cycle shifts, starts the gear-up and waits on all of them at once. With three or more
 * coupled nodes every partition has a metadata copy (an HA standby on the next node). Asked for
 * whole nodes ({@code --whole-nodes}), a node switched off goes off whole
 * ({@link NetnsWholeNodeSwitch}), as in the seed: its partition is handed to
 * its copy first, the low-gear files go round robin into every partition (an off node's through
 * its copy), and on the way up the returning NameNode catches up before the gear-up runs on
 * each partition's active NameNode (the copy, for an off node's partition); the partition goes
 * back to its node after the measurement. Otherwise (the default, and on fewer coupled nodes,
 * which have no copies) a node switched off stops its DataNode only, and the low-gear files go
 * to the partitions of the nodes that stay on.
 *
 * <p>A {@code --metadata fatbtree} cluster of three or more nodes keeps copies of its index
 * nodes too ({@code locus.ndcoupling.index.copies}), so with whole nodes each leaving node's
 * index node goes to its copy after its partition, for every configuration on that cluster
 * (the index lives in every NameNode, whether a configuration's clients use it or not); on the
 * way up its step 1 ships the returning index node the pages changed while it was off (counted
 * in the run, its time added to step 1), and the index node answers again once its partition
 * is home. FBB's files are then created through the index nodes of the nodes that stay on.
 */
final class GearBenchCluster implements AutoCloseable {
  private static final long TIMEOUT_MS = 30 * 60_000L;
  private static final long POLL_MS = 100;

  private final NetnsCluster cluster;
  private final ClusterDirectory dir;
  private final ClusterLayout layout;
  private final Configuration conf;
  private final PartitionGearClients clients;
  private final Map<String, GearProtocol> gears;
  private final boolean coupled;
  /** The file systems the low-gear files go to (each partition of a node on in gear 0). */
  private final List<URI> targets;
  /** The partition numbers of {@link #targets} (coupled nodes only). */
  private final List<Integer> targetPartitions = new ArrayList<>();
  /** The partitions of the nodes on in gear 0, whose index nodes FBB's writers enter at. */
  private final List<Integer> onPartitions = new ArrayList<>();
  private final NodeSwitch nodes;
  /** The partitions' metadata copies, or null without (one NameNode, or few coupled nodes). */
  private final PartitionCopies copies;
  /** The index nodes' copies, switched with whole nodes, or null without. */
  private final IndexHandOver index;
  private final RunningNetnsCluster links;
  private final GearBenchRequest request;
  private final PrintStream err;
  private final DataNodeConnections connections = new DataNodeConnections();

  GearBenchCluster(String knobs, MetadataLayout metadata, File directory,
      GearBenchRequest request, PrintStream err) throws Exception {
    this.coupled = metadata.coupled();
    ClusterLayout layout = new ClusterLayout(directory.getAbsoluteFile());
    this.request = request;
    this.err = err;
    Map<String, String> keys = new LinkedHashMap<>(request.featureKeys());
    List<String> ring = ClusterLayout.workers(request.nodes()).stream().map(layout::address)
        .toList();
    if (coupled) {
      CoupledNodeKeys.add(keys, ring);
    } else {
      keys.put(NdCouplingConfigKeys.GEAR_PLAN, GearPlan.halves(ring));
    }
    keys.put("dfs.blocksize", Long.toString(Math.max(1 << 20, request.fileBytes())));
    // Every block fully replicated in low gear, so gear-up moves only what the stand-ins took.
    keys.put("dfs.replication", Integer.toString(replication(request.nodes())));
    keys.putAll(GearBenchConfig.knobKeys(knobs));
    // Stock knobs move 2 blocks per source per 3 s heartbeat: thousands of blocks take minutes.
    keys.put(NdCouplingConfigKeys.GEAR_SHIFT_TIMEOUT_SECONDS,
        Long.toString(TIMEOUT_MS / 1000));
    long rate = request.diskBytesPerSecond();
    ClusterRecipe recipe = ClusterRecipe.builder(request.nodes())
        .yarn(false)
        .link(request.linkBitsPerSecond())
        .diskRate(rate)
        .nodeMemory(request.nodeMemoryBytes())
        .diskSize(2L << 30)
        .setAll(keys)
        .metadata(metadata)
        .build();
    this.cluster = NetnsCluster.start(directory, recipe, "the " + knobs + " knobs",
        request.home(), err);
    this.dir = cluster.directory();
    this.layout = new ClusterLayout(dir.root());
    this.conf = cluster.conf();
    conf.set("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
    this.clients = PartitionGearClients.connect(conf);
    this.gears = clients.gears();
    NetnsWholeNodeSwitch whole = coupled && request.wholeNodes() && request.nodes() >= 3
        ? NetnsWholeNodeSwitch.of(dir.root()) : null;
    if (whole != null) {
      Map<String, String> homes = new LinkedHashMap<>();
      for (String ns : clients.nameNodes().keySet()) {
        homes.put(ns, PartitionHomes.homeHost(conf, ns));
      }
      this.copies = new PartitionCopies(clients.nameNodes(), homes,
          new ZkfcHandOver(conf, (int) TIMEOUT_MS), TIMEOUT_MS);
      this.index = metadata.indexed() && IndexAdminHandOver.configured(conf)
          ? new IndexAdminHandOver(conf, TIMEOUT_MS) : null;
      this.nodes = whole;
    } else {
      this.copies = null;
      this.index = null;
      this.nodes = NetnsDataNodeSwitch.of(dir.root());
    }
    if (coupled) {
      Set<String> on = GearPlan.parse(keys.get(NdCouplingConfigKeys.GEAR_PLAN),
          keys.getOrDefault(NdCouplingConfigKeys.GEAR_STAND_INS, "")).activeIn(0);
      List<String> workers = ClusterLayout.workers(request.nodes());
      for (String node : workers) {
        if (on.contains(layout.address(node))) {
          onPartitions.add(workers.indexOf(node) + 1);
        }
      }
    }
    if (coupled && copies != null) {
      this.targets = gears.keySet().stream().map(PartitionedNamespace::uri).toList();
      for (String ns : gears.keySet()) {
        targetPartitions.add(ClusterLayout.index(PartitionedNamespace.nodeOf(ns)));
      }
    } else if (coupled) {
      targetPartitions.addAll(onPartitions);
      this.targets = targetPartitions.stream()
          .map(k -> PartitionedNamespace.uri(PartitionedNamespace.nameservice("node" + k)))
          .toList();
    } else {
      this.targets = List.of(FileSystem.getDefaultUri(conf));
    }
    this.links = new RunningNetnsCluster(conf, dir.root(), request.nodes());
  }

  /** Runs one measured cycle of {@code config}: down, writes, up; the files deleted after. */
  GearRun cycle(GearBenchConfig config, int run) throws Exception {
    GearShifter quiet = new GearShifter(gears, nodes, TIMEOUT_MS, line -> { });
    if (copies != null) {
      quiet.withCopies(copies);
    }
    if (index != null) {
      quiet.withIndexCopies(index);
    }
    quiet.down(0);
    Path runDir = new Path("/bench/" + config.name() + "-" + run);
    long writeStart = System.nanoTime();
    if (config.indexed()) {
      writeIndexedFiles(runDir, run);
    } else {
      writeFiles(runDir, run);
    }
    long writeMillis = millisSince(writeStart);

    Map<String, GearProtocol> actives = actives();
    Map<String, String> status = GearShifter.parse(actives.values().iterator().next().status());
    List<String> returning = new ArrayList<>();
    for (Map.Entry<String, String> e : status.entrySet()) {
      if (e.getKey().startsWith("node.") && e.getValue().startsWith("off")) {
        returning.add(e.getKey().substring("node.".length()));
      }
    }
    long restartStart = System.nanoTime();
    for (String host : returning) {
      nodes.on(host);
    }
    // With copies, a returning node's NameNode reads the edits it missed while it starts; what
    // it still applies after its first answer counts to step 1, its start to the restart.
    long catchUpMillis = 0;
    if (copies != null) {
      for (String ns : copies.homedOn(returning)) {
        catchUpMillis = Math.max(catchUpMillis,
            copies.awaitHomeCaughtUp(ns, restartStart)[2]);
      }
    }
    // The index's step 1 once the returning NameNodes (and the index nodes in them) run: the
    // pages shipped count to step 1; waiting for the index servers to answer is the restart's.
    long indexMillis = 0;
    int indexPages = index == null ? -1 : 0;
    long indexBytes = index == null ? -1 : 0;
    if (index != null) {
      for (String host : returning) {
        ReturnShipped shipped = index.returning(host);
        indexMillis += shipped.own().millis() + shipped.heldCopy().millis();
        indexPages += shipped.pages();
        indexBytes += shipped.bytes();
      }
    }
    waitLive(returning, actives);
    if (copies != null) {
      copies.refreshReturning(returning);
    }
    long stepOneMillis = catchUpMillis + indexMillis;
    long restartMillis = millisSince(restartStart) - stepOneMillis;

    Map<String, LinkBytes> bytesBefore = links.linkBytes();
    Map<String, Long> opensBefore = passiveOpens();
    Map<String, Long> acceptedBefore = accepted(returning);
    long start = System.nanoTime() - stepOneMillis * 1_000_000;
    // Every partition's gear-up at once (one NameNode: the one), each on its active NameNode.
    Map<String, GearUpReport> reports = new LinkedHashMap<>();
    for (Map.Entry<String, GearProtocol> p : actives.entrySet()) {
      reports.put(p.getKey(), GearUpReport.parse(p.getValue().startGearUp(1, config.issuance(),
          config.transfer())));
    }
    while (reports.values().stream().anyMatch(r -> "running".equals(r.state()))) {
      checkTimeout(start, "gear-up");
      Thread.sleep(POLL_MS);
      for (Map.Entry<String, GearProtocol> p : actives.entrySet()) {
        if ("running".equals(reports.get(p.getKey()).state())) {
          reports.put(p.getKey(), GearUpReport.parse(p.getValue().gearUpProgress()));
        }
      }
    }
    GearUpReport report = withCatchUp(new PartitionGearUps(reports, 0).combined(),
        stepOneMillis);
    List<DistributedFileSystem> filesystems = new ArrayList<>();
    try {
      for (URI uri : namespaces()) {
        filesystems.add((DistributedFileSystem) FileSystem.newInstance(uri, conf));
      }
      for (DistributedFileSystem fs : filesystems) {
        while (fs.getLowRedundancyBlocksCount() > 0 || fs.getMissingBlocksCount() > 0) {
          checkTimeout(start, "replication and deletion");
          Thread.sleep(POLL_MS);
        }
      }
      long reflectionMillis = millisSince(start);
      if (!"done".equals(report.state())) {
        throw new IOException(config.name() + " run " + run + ": gear-up " + report.state()
            + ": " + report.reason());
      }
      // Metrics reach /jmx once per metrics period (1 s on these clusters).
      Thread.sleep(2000);
      Map<String, Long> opensAfter = passiveOpens();
      Map<String, Long> acceptedAfter = accepted(returning);
      long dataConnections = 0;
      for (String host : returning) {
        dataConnections += acceptedAfter.get(host) - acceptedBefore.get(host);
      }
      Map<String, LinkBytes> bytesAfter = links.linkBytes();
      long tcpAccepted = 0;
      for (String node : ClusterLayout.workers(request.nodes())) {
        if (returning.contains(layout.address(node))) {
          tcpAccepted += opensAfter.get(node) - opensBefore.get(node);
        }
      }
      Map<String, Long> sent = new LinkedHashMap<>();
      for (String node : bytesAfter.keySet()) {
        sent.put(node, bytesAfter.get(node).sent() - bytesBefore.get(node).sent());
      }
      if (copies != null) {
        // not measured: the standbys follow the new gear, the partitions go back to their nodes
        for (GearProtocol standby : copies.standbys()) {
          standby.followGear(1);
        }
        for (String ns : copies.homedOn(returning)) {
          copies.moveHome(ns);
        }
      }
      if (index != null) {
        for (String host : returning) {
          index.back(host);
        }
      }
      boolean healthy = true;
      for (URI uri : namespaces()) {
        healthy &= fsck(uri).contains("Status: HEALTHY");
      }
      if (config.indexed()) {
        // through the index, so the run's entries go with its files
        try (FileSystem fbt = FileSystem.newInstance(fatBtreeUri(targetPartitions.get(0)),
            conf)) {
          fbt.delete(runDir, true);
        }
      }
      for (DistributedFileSystem fs : filesystems) {
        fs.delete(runDir, true);
      }
      // The next run starts with no deletion pending for nodes about to be switched off.
      for (DistributedFileSystem fs : filesystems) {
        while (fs.getPendingDeletionBlocksCount() > 0) {
          checkTimeout(start, "the deleted run's blocks to go");
          Thread.sleep(POLL_MS);
        }
      }
      return new GearRun(config.name(), run, request.files(), report.blocks(),
          report.stepMillis(), reflectionMillis, restartMillis, writeMillis, dataConnections,
          tcpAccepted, sent, healthy, indexPages, indexBytes);
    } finally {
      for (DistributedFileSystem fs : filesystems) {
        fs.close();
      }
    }
  }

  /** @return each partition's active NameNode's gear service (the home ones without copies) */
  private Map<String, GearProtocol> actives() throws IOException {
    Map<String, GearProtocol> actives = new LinkedHashMap<>(gears);
    if (copies != null) {
      for (String ns : copies.partitions()) {
        actives.put(ns, copies.active(ns));
      }
    }
    return actives;
  }

  /**
   * @return {@code report} with the returning NameNodes' catch-up and the index's step 1 added
   *     to step 1
   */
  private static GearUpReport withCatchUp(GearUpReport report, long catchUpMillis) {
    long[] steps = report.stepMillis().clone();
    steps[0] += catchUpMillis;
    return new GearUpReport(report.state(), report.step(), report.issuance(), report.transfer(),
        report.returning(), report.entries(), report.files(), report.blocks(),
        report.metadataBytes(), steps, report.blocksMoved(), report.blocksPending(),
        report.connections(), report.reason());
  }

  /** @return every namespace of the cluster: each partition, or the one NameNode's */
  private List<URI> namespaces() {
    if (!coupled) {
      return targets;
    }
    return gears.keySet().stream().map(PartitionedNamespace::uri).toList();
  }

  /** @return the replication factor the low gear's nodes can hold: at most 3 */
  static int replication(int nodes) {
    return Math.min(3, (nodes + 1) / 2);
  }

  /** The low-gear files of SDP and of one NameNode: file i round robin over the targets. */
  private void writeFiles(Path runDir, int run) throws Exception {
    List<FileSystem> filesystems = new ArrayList<>();
    try {
      for (URI uri : targets) {
        filesystems.add(FileSystem.newInstance(uri, conf));
      }
      writeEach(run, (writer, i) -> filesystems.get(i % filesystems.size()),
          i -> new Path(runDir, "f" + i));
    } finally {
      for (FileSystem fs : filesystems) {
        fs.close();
      }
    }
  }

  /**
   * Writes the run's files with {@code request.writers()} threads, writer w taking files w,
   * w + W, ...; file i goes to {@code path(i)} through {@code fs(writer, i)}, random bytes from
   * the run and the writer.
   */
  private void writeEach(int run, BiFunction<Integer, Integer, FileSystem> fs,
      IntFunction<Path> path) throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(request.writers());
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < request.writers(); w++) {
        int writer = w;
        done.add(writers.submit(() -> {
          Random random = new Random(run * 1000L + writer);
          byte[] data = new byte[request.fileBytes()];
          for (int i = writer; i < request.files(); i += request.writers()) {
            random.nextBytes(data);
            try (FSDataOutputStream out = fs.apply(writer, i).create(path.apply(i))) {
              out.write(data);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      writers.shutdownNow();
    }
  }

  /** @return the FBB namespace entered at index node {@code partition} */
  private static URI fatBtreeUri(int partition) {
    return URI.create(FatBtreeFileSystem.SCHEME + "://ns" + partition);
  }

  /**
   * FBB's low-gear files: the run directory's subtree {@code nsK} of each target partition
   * (those of the nodes on in gear 0, or with whole nodes every partition, an off node's index
   * node and partition served by their copies) assigned to that partition in the Fat-Btree,
   * then the same files as SDP's, round robin into those subtrees, each created through
   * {@code locusfbt://} (resolved at an index node, created on its partition, registered in
   * the index). Writers enter the index at the nodes on in turn, one over from the partition of
   * their first file, so resolutions start on other nodes than the leaf's as well (at most one
   * forward).
   */
  private void writeIndexedFiles(Path runDir, int run) throws Exception {
    int n = targetPartitions.size();
    List<FileSystem> entries = new ArrayList<>();
    try {
      for (int partition : onPartitions) {
        entries.add(FileSystem.newInstance(fatBtreeUri(partition), conf));
      }
      int e = entries.size();
      for (int k = 0; k < n; k++) {
        ((FatBtreeFileSystem) entries.get(k % e)).assignSubtree(
            new Path(runDir, "ns" + targetPartitions.get(k)), targetPartitions.get(k));
      }
      writeEach(run, (writer, i) -> entries.get((writer + 1) % e),
          i -> new Path(runDir, "ns" + targetPartitions.get(i % n) + "/f" + i));
    } finally {
      for (FileSystem fs : entries) {
        fs.close();
      }
    }
  }

  private void waitLive(List<String> hosts, Map<String, GearProtocol> actives)
      throws Exception {
    long start = System.nanoTime();
    for (GearProtocol partition : actives.values()) {
      while (true) {
        Map<String, String> status = GearShifter.parse(partition.status());
        if (hosts.stream().allMatch(h -> status.get("node." + h).contains("live=true"))) {
          break;
        }
        checkTimeout(start, "the returning DataNodes to register");
        Thread.sleep(POLL_MS);
      }
    }
  }

  private Map<String, Long> accepted(List<String> hosts) throws IOException {
    Map<String, Long> accepted = new LinkedHashMap<>();
    for (String host : hosts) {
      accepted.put(host, connections.accepted(host));
    }
    return accepted;
  }

  /** @return each worker's TCP connections accepted so far, from its namespace's kernel */
  private Map<String, Long> passiveOpens() throws IOException {
    Map<String, Long> opens = new LinkedHashMap<>();
    for (String node : ClusterLayout.workers(request.nodes())) {
      opens.put(node, tcpCounter(HostCommand.run("ip", "netns", "exec",
          layout.namespace(node), "cat", "/proc/net/snmp"), "PassiveOpens"));
    }
    return opens;
  }

  /** @return a {@code Tcp:} counter of {@code /proc/net/snmp} (a header line, a value line) */
  static long tcpCounter(String snmp, String name) {
    String[] header = null;
    for (String line : snmp.split("\n")) {
      if (!line.startsWith("Tcp:")) {
        continue;
      }
      String[] fields = line.trim().split("\\s+");
      if (header == null) {
        header = fields;
      } else {
        for (int i = 1; i < header.length; i++) {
          if (header[i].equals(name)) {
            return Long.parseLong(fields[i]);
          }
        }
      }
    }
    throw new IllegalArgumentException("no Tcp counter " + name + " in /proc/net/snmp");
  }

  private String fsck(URI namespace) throws Exception {
    Configuration of = new Configuration(conf);
    FileSystem.setDefaultUri(of, namespace);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new DFSck(of, new PrintStream(out, true, StandardCharsets.UTF_8)).run(new String[] {"/"});
    return out.toString(StandardCharsets.UTF_8);
  }

  private static void checkTimeout(long startNanos, String what) throws IOException {
    if (millisSince(startNanos) > TIMEOUT_MS) {
      throw new IOException("gave up waiting for " + what + " after " + TIMEOUT_MS + " ms");
    }
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  @Override
  public void close() {
    clients.close();
    cluster.close();
  }
}
