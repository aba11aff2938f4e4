package org.locus.boost.scheduling;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

/**
 * For each map of a submitted job, the hosts that hold its split's bytes on REPLICATED storage:
 * read in the AM from the split files the job client wrote ({@code job.splitmetainfo},
 * {@code job.split} in {@code mapreduce.job.dir}), in the AM's map order, and from the block
 * locations HDFS reports with their storage types. A split over several blocks is superlocal
 * where the block holding most of its bytes is.
 */
public final class SplitSuperlocalHosts {
  private SplitSuperlocalHosts() {
  }

  /**
   * @param conf the job's configuration, as the AM has it
   * @param replicated the storage type that stands for REPLICATED volumes
   * @return per map index, its superlocal hosts (empty where the split is not a file split or
   *     no replica is on REPLICATED storage)
   */
  public static List<Set<String>> read(Configuration conf, StorageType replicated)
      throws IOException {
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
    List<Set<String>> hosts = new ArrayList<>(metas.length);
    for (TaskSplitMetaInfo meta : metas) {
      Object split = readSplit(jobFs, conf, meta.getSplitIndex());
      hosts.add(superlocalHosts(conf, split, replicated));
    }
    return hosts;
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

  private static Set<String> superlocalHosts(Configuration conf, Object split,
      StorageType replicated) throws IOException {
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
      return Set.of();
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
    Set<String> hosts = new HashSet<>();
    if (best != null) {
      String[] names = best.getHosts();
      StorageType[] types = best.getStorageTypes();
      for (int k = 0; k < names.length && k < types.length; k++) {
        if (types[k] == replicated) {
          hosts.add(names[k]);
        }
      }
    }
    return hosts;
  }
}
