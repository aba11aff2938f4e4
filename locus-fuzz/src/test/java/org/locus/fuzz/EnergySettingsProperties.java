package org.locus.fuzz;

import org.apache.hadoop.conf.Configuration;
import org.locus.energy.EnergyConfigKeys;
import org.locus.energy.EnergySettings;

/** Energy's keys through {@link EnergySettings}: a DataNode refuses to start on a bad one. */
class EnergySettingsProperties extends FeatureSettingsProperties {
  @Override
  protected String feature() {
    return "energy";
  }

  @Override
  protected Class<?> configKeys() {
    return EnergyConfigKeys.class;
  }

  @Override
  protected void parse(Configuration conf) {
    EnergySettings.from(conf);
  }
}
