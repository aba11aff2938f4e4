package org.locus.kat.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;
import org.locus.kat.placement.KeyOwnership;

/**
 * The partitioner sends every key to its owner's reducer, computed from a {@code Text}'s bytes
 * exactly as from the decoded key (the importer places records by the decoded key).
 */
class KeyAwarePartitionerTest {
  private static final List<String> HOSTS = List.of("10.77.0.2", "10.77.0.3", "10.77.0.4",
      "10.77.0.5");
  private static final int BUCKETS = 64;

  @Test
  void everyKeyGoesToItsRendezvousOwnersReducer() {
    Configuration conf = conf();
    KeyOwnership ownership = new KeyOwnership(BUCKETS, HOSTS);
    assertEveryKeyToItsOwner(partitioner(conf), ownership);
  }

  @Test
  void explicitBucketOwnersWin() {
    Configuration conf = conf();
    // every bucket on the last host but one: a table no rendezvous order gives
    String owners = IntStream.range(0, BUCKETS).mapToObj(b -> b == 5 ? "0" : "3")
        .collect(Collectors.joining(","));
    conf.set(KatJobKeys.BUCKET_OWNERS, owners);
    List<String> ownerOfBucket = new ArrayList<>();
    for (int b = 0; b < BUCKETS; b++) {
      ownerOfBucket.add(b == 5 ? HOSTS.get(0) : HOSTS.get(3));
    }
    KeyOwnership ownership = new KeyOwnership(BUCKETS, HOSTS, ownerOfBucket);
    KeyAwarePartitioner<IntWritable> partitioner = partitioner(conf);
    assertEveryKeyToItsOwner(partitioner, ownership);
    Set<Integer> used = new HashSet<>();
    for (String key : keys()) {
      used.add(partitioner.getPartition(new Text(key), new IntWritable(1), HOSTS.size()));
    }
    assertEquals(Set.of(0, 3), used);
  }

  @Test
  void bytesAndDecodedKeysFallInTheSameBucket() {
    KeyOwnership ownership = new KeyOwnership(BUCKETS, HOSTS);
    for (String key : keys()) {
      Text text = new Text(key);
      assertEquals(ownership.bucketOf(key),
          ownership.bucketOf(text.getBytes(), 0, text.getLength()), key);
    }
    // a reused Text whose buffer is longer than its contents
    Text reused = new Text("a much longer key than the next one");
    reused.set("short");
    assertEquals(ownership.bucketOf("short"),
        ownership.bucketOf(reused.getBytes(), 0, reused.getLength()));
  }

  private static void assertEveryKeyToItsOwner(KeyAwarePartitioner<IntWritable> partitioner,
      KeyOwnership ownership) {
    for (String key : keys()) {
      int partition = partitioner.getPartition(new Text(key), new IntWritable(1), HOSTS.size());
      assertEquals(HOSTS.indexOf(ownership.ownerOf(key)), partition, key);
      // a non-Text key is hashed through its string form, to the same owner
      assertEquals(partition, partitioner.getPartition(new StringKey(key), new IntWritable(1),
          HOSTS.size()), key);
    }
  }

  private static KeyAwarePartitioner<IntWritable> partitioner(Configuration conf) {
    KeyAwarePartitioner<IntWritable> p = new KeyAwarePartitioner<>();
    p.setConf(conf);
    return p;
  }

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setStrings(KatJobKeys.HOSTS, HOSTS.toArray(new String[0]));
    conf.setInt(KatJobKeys.BUCKETS, BUCKETS);
    return conf;
  }

  private static List<String> keys() {
    List<String> keys = new ArrayList<>(List.of("", "the", "Straße", "東京", "naïve", "w1f"));
    Random random = new Random(11);
    for (int i = 0; i < 500; i++) {
      keys.add("w" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
    }
    assertTrue(keys.size() > 500);
    return keys;
  }

  /** A key that is not Text. */
  private record StringKey(String value) {
    @Override
    public String toString() {
      return value;
    }
  }
}
