package org.locus.boost.placement;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.locus.boost.BoostConfigKeys;

/**
 * The SUPERLOCAL rule (seed 001 §4.4.3): of a block's HDFS replicas, exactly one goes on
 * REPLICATED storage, where the volume's own mirror makes it count as two copies, and the others
 * go on DISK on other nodes. HDFS's storage policies are a fixed suite, so a path is tagged with
 * one stock policy ({@link BoostConfigKeys#SUPERLOCAL_POLICY}) and this class translates that tag
 * into a policy object with the SUPERLOCAL storage types, used only inside placement decisions.
 */
public final class SuperlocalLayout {
  private static final EnumSet<StorageType> NOT_ALLOWED =
      EnumSet.of(StorageType.DISK, StorageType.RAM_DISK, StorageType.PROVIDED);

  private final StorageType replicatedType;
  private final String tagPolicyName;
  private final int replicatedCopies;

  private SuperlocalLayout(StorageType replicatedType, String tagPolicyName,
      int replicatedCopies) {
    this.replicatedType = replicatedType;
    this.tagPolicyName = tagPolicyName;
    this.replicatedCopies = replicatedCopies;
  }

  /** @return the layout the configuration names; a bad value fails naming its key */
  public static SuperlocalLayout from(Configuration conf) {
    String typeName = conf.getTrimmed(BoostConfigKeys.REPLICATED_STORAGE_TYPE,
        BoostConfigKeys.REPLICATED_STORAGE_TYPE_DEFAULT.name());
    StorageType type;
    try {
      type = StorageType.valueOf(typeName.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(BoostConfigKeys.REPLICATED_STORAGE_TYPE + " = '"
          + typeName + "' is not a storage type; expected one of SSD, ARCHIVE, NVDIMM", e);
    }
    if (NOT_ALLOWED.contains(type)) {
      throw new IllegalArgumentException(BoostConfigKeys.REPLICATED_STORAGE_TYPE + " = " + type
          + " cannot hold REPLICATED volumes (DISK holds the plain copies, RAM_DISK is"
          + " transient, PROVIDED is remote); expected SSD, ARCHIVE or NVDIMM");
    }
    String tag = conf.getTrimmed(BoostConfigKeys.SUPERLOCAL_POLICY,
        BoostConfigKeys.SUPERLOCAL_POLICY_DEFAULT);
    // not conf.getInt: its NumberFormatException does not name the key (found by locus-fuzz)
    String copiesText = conf.getTrimmed(BoostConfigKeys.REPLICATED_COPIES);
    long copies;
    try {
      copies = copiesText == null ? BoostConfigKeys.REPLICATED_COPIES_DEFAULT
          : Long.parseLong(copiesText);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(BoostConfigKeys.REPLICATED_COPIES + " = '" + copiesText
          + "' is not a whole number; a REPLICATED volume keeps 2 to " + Short.MAX_VALUE
          + " copies of a block");
    }
    if (copies < 2 || copies > Short.MAX_VALUE) {
      throw new IllegalArgumentException(BoostConfigKeys.REPLICATED_COPIES + " = " + copies
          + ": a REPLICATED volume keeps 2 to " + Short.MAX_VALUE + " copies of a block");
    }
    return new SuperlocalLayout(type, tag, (int) copies);
  }

  public StorageType replicatedType() {
    return replicatedType;
  }

  public String tagPolicyName() {
    return tagPolicyName;
  }

  /** @return copies one replica on REPLICATED storage stands for */
  public int replicatedCopies() {
    return replicatedCopies;
  }

  /** @return whether {@code policy} is the tag of SUPERLOCAL paths */
  public boolean isTag(BlockStoragePolicy policy) {
    return policy != null && policy.getName().equalsIgnoreCase(tagPolicyName);
  }

  /**
   * @return the policy placement uses for a tagged path: first replica on REPLICATED storage,
   *     every further one on DISK; DISK when no REPLICATED storage is left
   */
  public BlockStoragePolicy placementPolicyFor(BlockStoragePolicy tag) {
    return new BlockStoragePolicy(tag.getId(), "SUPERLOCAL",
        new StorageType[] {replicatedType, StorageType.DISK},
        new StorageType[] {StorageType.DISK}, new StorageType[] {StorageType.DISK});
  }

  /**
   * The replicas a SUPERLOCAL block holds beyond its layout, by storage type: with one
   * REPLICATED replica and the rest on DISK wanted, a second REPLICATED replica (a node that
   * returned after re-replication) is the excess, not a DISK one as the tag's stock policy says.
   *
   * @param replication the file's HDFS replication
   * @param present the storage type of each replica the block has
   * @return a mutable list of excess storage types, one entry per excess replica
   */
  public List<StorageType> excessTypes(short replication, Iterable<StorageType> present) {
    return placementPolicyFor(new BlockStoragePolicy((byte) 0, tagPolicyName,
        new StorageType[] {replicatedType}, new StorageType[0], new StorageType[0]))
        .chooseExcess(replication, present);
  }

  /** @return HDFS replication for {@code copies} total copies: one replica counts twice */
  public short replicationFor(int copies) {
    int replication = copies - (replicatedCopies - 1);
    if (replication < 1) {
      throw new IllegalArgumentException("--copies " + copies + " is fewer than the "
          + replicatedCopies + " copies one REPLICATED replica holds");
    }
    return (short) replication;
  }
}
