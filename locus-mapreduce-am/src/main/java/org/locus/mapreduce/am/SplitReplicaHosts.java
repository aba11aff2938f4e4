package org.locus.mapreduce.am;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitIndex;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitMetaInfo;
import org.apache.hadoop.mapreduce.split.SplitMetaInfoReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For each map of a submitted job, the hosts holding its split's bytes and the storage type of
 * the replica each holds: read in the AM from the split files the job client wrote
 * ({@code job.splitmetainfo}, {@code job.split} in {@code mapreduce.job.dir}), in the AM's map
 * order, and from the block locations HDFS reports with their storage types. A split over
 * several blocks is judged by the block holding most of its bytes. Placements that rank a map's
 * hosts by what they hold (BoostDFS's REPLICATED volumes, energy-efficient HDFS's backups) read
 * their hosts from here.
 */
public final class SplitReplicaHosts {
  private static final Logger LOG = LoggerFactory.getLogger(SplitReplicaHosts.class);

  private final List<Map<String, StorageType>> byMap;

  private SplitReplicaHosts(List<Map<String, StorageType>> byMap) {
    this.byMap = byMap;
  }

  /**
   * @param conf the job's configuration, as the AM has it
   * @return per map index, the hosts of its split's main block with the storage type of their
   *     replica (none where the split is not a file split)
   */
  public static SplitReplicaHosts read(Configuration conf) throws IOException {
    String dir = conf.get(MRJobConfig.MAPREDUCE_JOB_DIR);
    if (dir == null) {
      throw new IOException(MRJobConfig.MAPREDUCE_JOB_DIR + " is not set: not a submitted job's"
          + " configuration");
    }
    Path jobDir = new Path(dir);
    FileSystem jobFs = jobDir.getFileSystem(conf);
    String id = conf.get(MRJobConfig.ID);
    JobID jobId = id == null ? new JobID() : JobID.forName(id);
    TaskSplitMetaInfo[] metas = SplitMetaInfoReader.readSplitMetaInfo(jobId, jobFs, conf, jobDir);
    List<Map<String, StorageType>> hosts = new ArrayList<>(metas.length);
    for (TaskSplitMetaInfo meta : metas) {
      Object split = readSplit(jobFs, conf, meta.getSplitIndex());
      hosts.add(replicaHosts(conf, split));
    }
    return new SplitReplicaHosts(hosts);
  }

  /**
   * The AM's reading for a placement that ranks hosts by one storage type: the split files read,
   * and the log told how many maps have a host on {@code type} (their {@code level}).
   *
   * @return the job's split hosts, or null (maps get stock locality, the log says why) where
   *     the split files cannot be read
   */
  public static SplitReplicaHosts readOrNone(Configuration conf, StorageType type, String level) {
    try {
      SplitReplicaHosts splits = read(conf);
      long maps = 0;
      for (int k = 0; k < splits.maps(); k++) {
        maps += splits.hostsOn(k, type).isEmpty() ? 0 : 1;
      }
      LOG.info("{} of {} maps have a {} host ({})", maps, splits.maps(), level, type);
      return splits;
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} hosts unknown, maps get stock locality: {}", level, e.toString());
      return null;
    }
  }

  /** @return how many maps the job has */
  public int maps() {
    return byMap.size();
  }

  /**
   * @param mapIndex a map's index in the job
   * @return the hosts whose replica of the map's main block is on {@code type}; empty for a map
   *     index out of range
   */
  public Set<String> hostsOn(int mapIndex, StorageType type) {
    if (mapIndex < 0 || mapIndex >= byMap.size()) {
      return Set.of();
    }
    return byMap.get(mapIndex).entrySet().stream().filter(e -> e.getValue() == type)
        .map(Map.Entry::getKey).collect(Collectors.toUnmodifiableSet());
  }

  /** Reads one split as the map task itself does: its class name, then its serialized form. */
  static Object readSplit(FileSystem fs, Configuration conf, TaskSplitIndex index)
      throws IOException {
    try (FSDataInputStream in = fs.open(new Path(index.getSplitLocation()))) {
      in.seek(index.getStartOffset());
      String className = Text.readString(in);
      Class<?> type;
      try {
        type = conf.getClassByName(className);
      } catch (ClassNotFoundException e) {
        throw new IOException("split class " + className + " is not on the AM's classpath", e);
      }
      @SuppressWarnings("unchecked")
      Deserializer<Object> deserializer =
          (Deserializer<Object>) new SerializationFactory(conf).getDeserializer(type);
      if (deserializer == null) {
        throw new IOException("no serialization for split class " + className);
      }
      deserializer.open(in);
      return deserializer.deserialize(null);
    }
  }

  private static Map<String, StorageType> replicaHosts(Configuration conf, Object split)
      throws IOException {
    Path file;
    long start;
    long length;
    if (split instanceof org.apache.hadoop.mapreduce.lib.input.FileSplit s) {
      file = s.getPath();
      start = s.getStart();
      length = s.getLength();
    } else if (split instanceof org.apache.hadoop.mapred.FileSplit s) {
      file = s.getPath();
      start = s.getStart();
      length = s.getLength();
    } else {
      return Map.of();
    }
    BlockLocation best = null;
    long bestBytes = 0;
    for (BlockLocation block : file.getFileSystem(conf).getFileBlockLocations(file, start,
        Math.max(length, 1))) {
      long from = Math.max(start, block.getOffset());
      long to = Math.min(start + length, block.getOffset() + block.getLength());
      if (best == null || to - from > bestBytes) {
        best = block;
        bestBytes = to - from;
      }
    }
    Map<String, StorageType> hosts = new HashMap<>();
    if (best != null) {
      String[] names = best.getHosts();
      StorageType[] types = best.getStorageTypes();
      for (int k = 0; k < names.length && k < types.length; k++) {
        hosts.put(names[k], types[k]);
      }
    }
    return hosts;
  }
}
