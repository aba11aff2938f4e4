package org.locus.kat.ingest;

/** The two queueing designs of seed 000 §3.4.3; see {@link CentralQueues}, {@link PerNodeStreams}. */
public enum QueueDesign {
  /** One queue per bucket at the importer, shipped bucket by bucket. */
  CENTRAL,
  /** One stream per bucket straight to its owner, all owners in parallel. */
  DISTRIBUTED
}
