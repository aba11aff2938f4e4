package org.locus.placement;

/**
 * Every configuration key of the placement router, with its default. Documented in
 * docs/placement.md.
 */
public final class PlacementConfigKeys {
  private PlacementConfigKeys() {
  }

  /**
   * The placement rules the NameNode's {@code RoutingBlockPlacementPolicy} asks, in order:
   * comma-separated class names, each a subclass of {@code PlacementRule}. Empty: every block
   * is placed by Hadoop's {@code BlockPlacementPolicyDefault}. A list key: each feature adds
   * its rule.
   */
  public static final String RULES = "locus.placement.rules";
  public static final String RULES_DEFAULT = "";
}
