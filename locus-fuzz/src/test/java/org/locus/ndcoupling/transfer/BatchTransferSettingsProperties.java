package org.locus.ndcoupling.transfer;

import org.apache.hadoop.conf.Configuration;
import org.locus.fuzz.FeatureSettingsProperties;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/**
 * Ndcoupling's batch transfer keys through {@link BatchTransferSettings}: a DataNode's
 * BatchTransferService refuses to start on a bad one. (In this package: the settings are
 * package-private.)
 */
class BatchTransferSettingsProperties extends FeatureSettingsProperties {
  @Override
  protected String feature() {
    return "ndcoupling";
  }

  @Override
  protected Class<?> configKeys() {
    return NdCouplingConfigKeys.class;
  }

  @Override
  protected boolean parsedHere(String key) {
    return key.startsWith("locus.ndcoupling.batch-transfer.");
  }

  @Override
  protected void parse(Configuration conf) {
    BatchTransferSettings.from(conf);
  }
}
