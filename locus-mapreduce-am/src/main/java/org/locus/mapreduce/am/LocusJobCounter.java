package org.locus.mapreduce.am;

/**
 * Job counters of the Locus MapReduce AM, beside Hadoop's {@code JobCounter}: the locality
 * level above {@code DATA_LOCAL_MAPS}. A superlocal map is also counted data-local by the stock
 * AM, so {@code SUPERLOCAL_MAPS <= DATA_LOCAL_MAPS}.
 */
public enum LocusJobCounter {
  /** Map attempts launched on one of their {@link TaskPlacement#superlocalHosts}. */
  SUPERLOCAL_MAPS
}
