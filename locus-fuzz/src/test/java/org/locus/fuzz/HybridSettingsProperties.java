package org.locus.fuzz;

import org.apache.hadoop.conf.Configuration;
import org.locus.hybrid.HybridConfigKeys;
import org.locus.hybrid.HybridSettings;

/** The hybrid profile's keys through {@link HybridSettings}: the client refuses a bad one. */
class HybridSettingsProperties extends FeatureSettingsProperties {
  @Override
  protected String feature() {
    return "hybrid";
  }

  @Override
  protected Class<?> configKeys() {
    return HybridConfigKeys.class;
  }

  @Override
  protected void parse(Configuration conf) {
    HybridSettings.from(conf);
  }
}
