package org.locus.boost;

import org.apache.hadoop.fs.StorageType;

/** Every configuration key of BoostDFS, with its default. Documented in docs/boost.md. */
public final class BoostConfigKeys {
  private BoostConfigKeys() {
  }

  /** Master switch: when false the placement policy behaves exactly as the stock default. */
  public static final String ENABLED = "locus.boost.enabled";
  public static final boolean ENABLED_DEFAULT = false;

  /**
   * The existing StorageType that stands for REPLICATED storage (a MorphStore volume mirrored on
   * two devices). Energy uses ARCHIVE and the hybrid profile SSD, so the default is NVDIMM.
   */
  public static final String REPLICATED_STORAGE_TYPE = "locus.boost.replicated.storage.type";
  public static final StorageType REPLICATED_STORAGE_TYPE_DEFAULT = StorageType.NVDIMM;

  /**
   * The stock storage policy whose paths BoostDFS treats as SUPERLOCAL: one copy on REPLICATED
   * storage, the others on DISK.
   */
  public static final String SUPERLOCAL_POLICY = "locus.boost.superlocal.policy";
  public static final String SUPERLOCAL_POLICY_DEFAULT = "ALL_NVDIMM";

  /** Copies a REPLICATED volume keeps of each block (MorphStore mirrors on two devices). */
  public static final String REPLICATED_COPIES = "locus.boost.replicated.copies";
  public static final int REPLICATED_COPIES_DEFAULT = 2;

  /**
   * How many nodes with REPLICATED storage the NameNode samples for a new SUPERLOCAL block whose
   * writer is not a DataNode; the one that got the fewest REPLICATED replicas of the block's
   * directory, then the one holding the fewest in all, takes it (the "power of d choices"). 1
   * keeps the stock random choice; 2 already spreads the copies almost evenly; the number of
   * nodes compares them all.
   */
  public static final String REPLICATED_CHOICES = "locus.boost.placement.replicated-choices";
  public static final int REPLICATED_CHOICES_DEFAULT = 2;
}
