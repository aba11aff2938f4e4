package org.locus.kat.hint;

import java.util.regex.Pattern;

/**
 * The key is field {@code n} (1-based) of a delimited entry, as for jobs that group records by
 * a column. The entry is stored whole; an entry with fewer fields has no key.
 */
public final class FieldHint implements KeyHint {
  private final int field;
  private final String delimiter;
  private final Pattern splitter;

  public FieldHint(int field, String delimiter) {
    if (field < 1) {
      throw new IllegalArgumentException("field number must be 1 or more, got " + field);
    }
    if (delimiter.isEmpty()) {
      throw new IllegalArgumentException("field delimiter must not be empty");
    }
    this.field = field;
    this.delimiter = delimiter;
    this.splitter = Pattern.compile(Pattern.quote(delimiter));
  }

  @Override
  public void split(String entry, RecordSink sink) {
    sink.accept(keyOfRecord(entry), entry);
  }

  @Override
  public String keyOfRecord(String record) {
    String[] fields = splitter.split(record, field + 1);
    return fields.length >= field ? fields[field - 1] : null;
  }

  @Override
  public String describe() {
    return "field:" + field + "," + delimiter;
  }
}
