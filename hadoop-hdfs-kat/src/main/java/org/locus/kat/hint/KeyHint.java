package org.locus.kat.hint;

/**
 * The pre-calculation module's hint (seed 000 §3.4.3): what a job's map will emit as
 * intermediate key(s) for one input entry, so that the entry can be stored on the node that will
 * reduce that key.
 *
 * <p>A hint splits one input entry (a line of text) into <em>keyed records</em>. Each record is
 * stored, as a line of its own, on the node owning its key. The contract that keeps job output
 * unchanged: running the job's map over the records of an entry emits exactly what it would emit
 * over the entry itself. A record with a null key carries no intermediate key (the map emits
 * nothing keyed for it) and is spread evenly over the nodes.
 *
 * <p>Implementations must be deterministic and thread-confined (one instance per thread). A
 * custom hint is a public class with a public no-argument constructor; if it implements
 * {@link org.apache.hadoop.conf.Configurable} it receives the job configuration.
 */
public interface KeyHint {

  /** Receives the keyed records of one entry, in entry order. */
  interface RecordSink {
    /**
     * @param key the intermediate key the map will emit for {@code record}, or null for none
     * @param record the text to store (one line; must not contain a newline)
     */
    void accept(String key, String record);
  }

  /** Splits one input entry (without its line terminator) into keyed records. */
  void split(String entry, RecordSink sink);

  /** @return the key a stored record belongs to (null for none), used when verifying */
  String keyOfRecord(String record);

  /** @return a short description for reports, e.g. {@code grep:w1[0-9]} */
  String describe();
}
