package org.locus.mapreduce.am;

/**
 * Job counters of the Locus MapReduce AM, beside Hadoop's {@code JobCounter}: the locality
 * level above {@code DATA_LOCAL_MAPS} and the one below it. Superlocal and backup-local maps
 * both run on a host their split names, so the stock AM also counts them data-local:
 * {@code SUPERLOCAL_MAPS + BACKUP_LOCAL_MAPS <= DATA_LOCAL_MAPS}.
 */
public enum LocusJobCounter {
  /**
   * Map attempts given a container on one of their {@link TaskPlacement#superlocalHosts}
   * (counted at assignment, as {@code DATA_LOCAL_MAPS}).
   */
  SUPERLOCAL_MAPS,
  /** Map attempts given a container on one of their {@link TaskPlacement#backupHosts}. */
  BACKUP_LOCAL_MAPS
}
