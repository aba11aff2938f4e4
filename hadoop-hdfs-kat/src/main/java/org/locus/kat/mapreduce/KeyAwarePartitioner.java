package org.locus.kat.mapreduce;

import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Partitioner;
import org.locus.kat.placement.KeyOwnership;
import org.locus.kat.placement.PlacementMap;

/**
 * Sends each intermediate key to the reducer of the host that owns it under the dataset's
 * placement map: partition = index of {@code owner(key)} in {@link KatJobKeys#HOSTS}. The map
 * output of a key is then produced and consumed on the same host.
 */
public class KeyAwarePartitioner<V> extends Partitioner<Object, V> implements Configurable {
  private Configuration conf;
  private KeyOwnership ownership;
  /** Index in the host list of each bucket's owner: the per-record work is one hash. */
  private int[] hostOfBucket;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    String[] hosts = conf.getTrimmedStrings(KatJobKeys.HOSTS);
    if (hosts.length == 0) {
      throw new IllegalArgumentException(KatJobKeys.HOSTS + " is not set; configure the job"
          + " with KeyAwareJobs.configure");
    }
    List<String> hostList = Arrays.asList(hosts);
    this.ownership = new KeyOwnership(conf.getInt(KatJobKeys.BUCKETS, 0), hostList,
        PlacementMap.ownersOf(conf.get(KatJobKeys.BUCKET_OWNERS), hostList));
    this.hostOfBucket = new int[ownership.buckets()];
    for (int b = 0; b < hostOfBucket.length; b++) {
      hostOfBucket[b] = hostList.indexOf(ownership.ownerOfBucket(b));
    }
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public int getPartition(Object key, V value, int numPartitions) {
    int bucket = key instanceof Text text
        ? ownership.bucketOf(text.getBytes(), 0, text.getLength())
        : ownership.bucketOf(key.toString());
    return hostOfBucket[bucket] % numPartitions;
  }
}
