package org.locus.kat.mapreduce;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.locus.kat.placement.PlacementMap;
import org.locus.mapreduce.am.LocusAmConfigKeys;
import org.locus.mapreduce.am.TaskPlacement;

/**
 * Turns a job over a KAT dataset into a key-aware job: maps run on the owners of their data
 * ({@link OwnerLocalInputFormat}), keys go to their owner's partition
 * ({@link KeyAwarePartitioner}), one reducer per owner host, and reducer {@code p} runs on
 * host {@code p} (the Locus AM with {@link OwnerTaskPlacement}). The job's map and reduce
 * classes are untouched.
 */
public final class KeyAwareJobs {
  private KeyAwareJobs() {
  }

  /**
   * @param job a job whose only input is {@code dataset}; its map must match the dataset's
   *     hint (e.g. WordCount over a {@code wordcount} dataset)
   */
  public static void configure(Job job, Path dataset, PlacementMap map) throws IOException {
    Configuration conf = job.getConfiguration();
    FileInputFormat.setInputPaths(job, dataset);
    job.setInputFormatClass(OwnerLocalInputFormat.class);
    job.setPartitionerClass(KeyAwarePartitioner.class);
    job.setNumReduceTasks(map.hosts().size());
    conf.setInt(KatJobKeys.BUCKETS, map.buckets());
    conf.setStrings(KatJobKeys.HOSTS, map.hosts().toArray(new String[0]));
    if (map.owners().isEmpty()) {
      conf.unset(KatJobKeys.BUCKET_OWNERS);
    } else {
      conf.set(KatJobKeys.BUCKET_OWNERS, map.ownerIndexes());
    }
    conf.setBoolean(MRJobConfig.JOB_UBERTASK_ENABLE, false);
    // Reducers are asked for at the job's own slow-start; the Locus AM holds each to its owner
    // host while maps run (LocusRMContainerAllocator), so none is placed elsewhere.
    if (conf.getBoolean(KatJobKeys.ALIGN_REDUCERS, true)) {
      conf.set(MRConfig.FRAMEWORK_NAME, LocusAmConfigKeys.FRAMEWORK_NAME);
      conf.setClass(LocusAmConfigKeys.TASK_PLACEMENT, OwnerTaskPlacement.class,
          TaskPlacement.class);
    }
  }
}
