package org.locus.bench.metadata;

import java.util.Arrays;
import java.util.List;

/**
 * The three ways {@code locus bench metadata} serves the same workload (seed 004 §5.3, Fig. 7),
 * all on one {@code --metadata fatbtree} cluster so that they share nodes, caps and disks.
 */
public enum MetadataLayoutUnderTest {
  /**
   * One stock NameNode for the whole namespace: every client goes to partition 1's NameNode
   * (node1, capped like every node); the other partitions stay idle.
   */
  SINGLE("single", "one NameNode"),
  /**
   * Static directory partitioning: each client writes into its own partition; a reader finds
   * a file's partition from its directory (a static mount table) and goes straight there.
   */
  SDP("sdp", "SDP"),
  /**
   * Fat-Btree: each client writes into its own partition and inserts the path into the index;
   * a reader resolves the path through the index at its own node (at most one forward), then
   * the owning partition serves it.
   */
  FATBTREE("fatbtree", "Fat-Btree");

  private final String word;
  private final String label;

  MetadataLayoutUnderTest(String word, String label) {
    this.word = word;
    this.label = label;
  }

  /** @return the name on the command line and in the samples */
  public String word() {
    return word;
  }

  /** @return the name in the report */
  public String label() {
    return label;
  }

  /** @return the layout named {@code word} */
  public static MetadataLayoutUnderTest of(String word) {
    for (MetadataLayoutUnderTest l : values()) {
      if (l.word.equals(word.trim())) {
        return l;
      }
    }
    throw new IllegalArgumentException("unknown configuration '" + word + "'; one of "
        + String.join(",", Arrays.stream(values()).map(MetadataLayoutUnderTest::word).toList()));
  }

  /** @return the layouts named in {@code list} (comma-separated), in that order */
  public static List<MetadataLayoutUnderTest> parse(String list) {
    return Arrays.stream(list.split(",")).filter(s -> !s.isBlank())
        .map(MetadataLayoutUnderTest::of).distinct().toList();
  }
}
