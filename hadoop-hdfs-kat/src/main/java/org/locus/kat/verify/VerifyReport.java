package org.locus.kat.verify;

import java.util.List;
import java.util.Map;

/**
 * What {@link PlacementVerifier} found in a KAT dataset.
 *
 * @param keys distinct keys
 * @param records keyed records (records without a key are counted in {@code keylessRecords})
 * @param keylessRecords records that carry no key
 * @param splitKeys keys whose records do not all live on one node (must be 0)
 * @param misplacedBuckets bucket files stored under another owner than the placement map says
 * @param blocksOffOwner blocks with no replica on their owner host
 * @param bytesPerHost stored bytes per owner host
 * @param recordsPerHost records per owner host
 * @param topKeys the largest keys by bytes, largest first
 */
public record VerifyReport(long keys, long records, long keylessRecords, long splitKeys,
    long misplacedBuckets, long blocksOffOwner, Map<String, Long> bytesPerHost,
    Map<String, Long> recordsPerHost, List<KeySize> topKeys) {

  /** One key's share of the dataset. */
  public record KeySize(String key, long bytes, long records) {
  }
}
