package org.locus.kat.ingest;

import java.util.Map;

/**
 * What an import did.
 *
 * @param dataset the dataset written
 * @param entries input entries (lines) read
 * @param records keyed records stored
 * @param inputBytes bytes of input read
 * @param storedBytes bytes stored (records with their newlines)
 * @param bytesPerOwner stored bytes per owner host
 * @param unsplittableEntries entries a hint had to keep whole although they carry several keys
 * @param millis wall time
 */
public record ImportReport(String dataset, long entries, long records, long inputBytes,
    long storedBytes, Map<String, Long> bytesPerOwner, long unsplittableEntries, long millis) {
}
