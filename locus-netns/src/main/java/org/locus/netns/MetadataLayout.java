package org.locus.netns;

/**
 * Where a netns cluster keeps its namespace metadata ({@code --metadata}).
 *
 * <p>{@link #MASTER} is stock HDFS as an operator runs it: one NameNode, on the master node.
 * {@link #SDP} is NDCouplingHDFS's coupled node (seed 004 §4.1, §4.2.1, static directory
 * partitioning) built from Hadoop's own federation: every worker node runs a NameNode for its
 * own partition (nameservice {@code nsK} on {@code nodeK}) beside its DataNode, and every
 * DataNode serves every partition's block pool, so no node needs a big NameNode machine and
 * no single NameNode carries every metadata operation. {@link #FATBTREE} is the same coupled
 * cluster with the Fat-Btree index (seed 004 §4.2.2) hosted in every NameNode
 * ({@link FatBtreeIndexKeys}): one distributed index maps every path to its partition, and a
 * client may resolve a path at any node.
 */
public enum MetadataLayout implements OptionWord {
  /** One NameNode on the master for the whole namespace. */
  MASTER("master"),
  /** A NameNode per worker node, one nameservice (partition) each, with a common cluster ID. */
  SDP("sdp"),
  /** {@link #SDP} plus a Fat-Btree index node in every NameNode, mapping paths to partitions. */
  FATBTREE("fatbtree");

  private final String word;

  MetadataLayout(String word) {
    this.word = word;
  }

  /** @return the value of {@code --metadata} that selects this layout */
  @Override
  public String word() {
    return word;
  }

  /** @return whether every worker runs a NameNode of its own partition */
  public boolean coupled() {
    return this == SDP || this == FATBTREE;
  }

  /** @return whether every NameNode hosts a node of the Fat-Btree path index */
  public boolean indexed() {
    return this == FATBTREE;
  }

  /**
   * @param option the option or key the text came from, named in the error
   * @return the layout {@code text} names
   * @throws IllegalArgumentException naming the option and the accepted values
   */
  public static MetadataLayout of(String option, String text) {
    return OptionWord.parse(values(), "metadata layout", option, text);
  }

}
