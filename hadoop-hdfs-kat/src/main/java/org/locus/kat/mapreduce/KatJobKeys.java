package org.locus.kat.mapreduce;

/**
 * Job configuration keys of a key-aware job, set by {@link KeyAwareJobs#configure}.
 * One place for every key KAT's MapReduce side reads.
 */
public final class KatJobKeys {
  /** Number of key buckets of the dataset's placement map. */
  public static final String BUCKETS = "locus.kat.buckets";
  /** Owner hosts in partition order: reducer p is aligned with {@code hosts[p]}. */
  public static final String HOSTS = "locus.kat.hosts";
  /** Each bucket's owner as an index into {@link #HOSTS}; unset means plain rendezvous. */
  public static final String BUCKET_OWNERS = "locus.kat.bucket-owners";
  /**
   * Whether reducers are placed on their partition's host (default true for KAT jobs): the job
   * then runs under the Locus AM with {@link OwnerTaskPlacement}.
   */
  public static final String ALIGN_REDUCERS = "locus.kat.align-reducers";

  private KatJobKeys() {
  }
}
