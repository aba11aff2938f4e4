package org.locus.fuzz;

import org.apache.hadoop.conf.Configuration;
import org.locus.lowpower.LowpowerConfigKeys;
import org.locus.lowpower.datanode.DirectWriteSettings;

/**
 * Lowpower's keys through {@link DirectWriteSettings}: a DataNode refuses to build its dataset
 * on a bad one. The dataset factory class is Hadoop's own key, read by Hadoop.
 */
class DirectWriteSettingsProperties extends FeatureSettingsProperties {
  @Override
  protected String feature() {
    return "lowpower";
  }

  @Override
  protected Class<?> configKeys() {
    return LowpowerConfigKeys.class;
  }

  @Override
  protected boolean parsedHere(String key) {
    return !key.equals(LowpowerConfigKeys.DATASET_FACTORY_CLASS);
  }

  @Override
  protected void parse(Configuration conf) {
    DirectWriteSettings.from(conf);
  }
}
