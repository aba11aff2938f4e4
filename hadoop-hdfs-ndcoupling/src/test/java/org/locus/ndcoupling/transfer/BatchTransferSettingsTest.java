package org.locus.ndcoupling.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.locus.ndcoupling.NdCouplingConfigKeys;

/** The batch transfer keys: a value that is not a number is refused naming the key. */
class BatchTransferSettingsTest {

  private static IllegalArgumentException refusal(String key, String value) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    return assertThrows(IllegalArgumentException.class, () -> BatchTransferSettings.from(conf));
  }

  @Test
  void aPortThatIsNotANumberIsRefusedNamingTheKeyAndTheRange() {
    // Hadoop's getInt threw 'For input string: "any"' without the key (locus-fuzz)
    assertEquals(NdCouplingConfigKeys.BATCH_TRANSFER_PORT + " must be a whole number 0..65535,"
        + " got 'any'", refusal(NdCouplingConfigKeys.BATCH_TRANSFER_PORT, "any").getMessage());
  }

  @Test
  void aBandwidthThatIsNotASizeIsRefusedNamingTheKey() {
    // Hadoop's getLongBytes threw 'For input string: "tru"' for "true" (locus-fuzz)
    assertEquals(NdCouplingConfigKeys.BATCH_TRANSFER_BANDWIDTH_PER_SEC + " must be 0 (no limit)"
        + " or a positive number of bytes per second (suffixes k, m, g), got 'true'",
        refusal(NdCouplingConfigKeys.BATCH_TRANSFER_BANDWIDTH_PER_SEC, "true").getMessage());
  }

  @Test
  void numbersInRangeAreRead() {
    Configuration conf = new Configuration(false);
    conf.set(NdCouplingConfigKeys.BATCH_TRANSFER_PORT, "4242");
    conf.set(NdCouplingConfigKeys.BATCH_TRANSFER_BANDWIDTH_PER_SEC, "2m");
    BatchTransferSettings s = BatchTransferSettings.from(conf);
    assertEquals(4242, s.port());
    assertEquals(2L << 20, s.bandwidthPerSec());
  }
}
