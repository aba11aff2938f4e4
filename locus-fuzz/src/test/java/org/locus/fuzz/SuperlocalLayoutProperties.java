package org.locus.fuzz;

import org.apache.hadoop.conf.Configuration;
import org.locus.boost.BoostConfigKeys;
import org.locus.boost.placement.SuperlocalLayout;

/**
 * Boost's layout keys through {@link SuperlocalLayout}: the NameNode's superlocal placement
 * rule refuses to start on a bad one. Whether the rule is on and how many REPLICATED choices it
 * weighs are read by the rule itself (SuperlocalPlacementRule), not here.
 */
class SuperlocalLayoutProperties extends FeatureSettingsProperties {
  @Override
  protected String feature() {
    return "boost";
  }

  @Override
  protected Class<?> configKeys() {
    return BoostConfigKeys.class;
  }

  @Override
  protected boolean parsedHere(String key) {
    return !key.equals(BoostConfigKeys.ENABLED) && !key.equals(BoostConfigKeys.REPLICATED_CHOICES);
  }

  @Override
  protected void parse(Configuration conf) {
    SuperlocalLayout.from(conf);
  }
}
