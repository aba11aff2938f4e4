package org.locus.kat.hint;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Grep's hint: the intermediate key of a match is the matched string.
 *
 * <ul>
 *   <li>An entry without a match has no key and is spread evenly.</li>
 *   <li>An entry whose matches are all the same string is one record with that key.</li>
 *   <li>An entry with different matched strings is cut into segments, each ending right after
 *       one match, so each segment can live with its key. A cut is kept only if matching the
 *       segments alone finds exactly the original matches (a pattern that looks beyond its
 *       match, such as one with anchors or look-around, may not); otherwise the entry stays
 *       whole under its first match's key and {@link #unsplittableEntries()} counts it.</li>
 * </ul>
 */
public final class GrepHint implements KeyHint {
  private final String regex;
  private final Pattern pattern;
  private long unsplittable;

  /** @throws IllegalArgumentException naming the regex when it does not compile */
  public GrepHint(String regex) {
    this.regex = regex;
    try {
      this.pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("invalid regular expression '" + regex + "': "
          + e.getDescription() + " near index " + e.getIndex(), e);
    }
  }

  @Override
  public void split(String entry, RecordSink sink) {
    Matcher m = pattern.matcher(entry);
    List<String> keys = new ArrayList<>();
    List<Integer> ends = new ArrayList<>();
    while (m.find()) {
      keys.add(m.group());
      ends.add(m.end());
    }
    if (keys.isEmpty()) {
      sink.accept(null, entry);
      return;
    }
    if (keys.stream().distinct().count() == 1) {
      sink.accept(keys.get(0), entry);
      return;
    }
    List<String> segments = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < ends.size(); i++) {
      int end = i == ends.size() - 1 ? entry.length() : ends.get(i);
      segments.add(entry.substring(start, end));
      start = end;
    }
    for (int i = 0; i < segments.size(); i++) {
      if (!matchesExactly(segments.get(i), keys.get(i))) {
        unsplittable++;
        sink.accept(keys.get(0), entry);
        return;
      }
    }
    for (int i = 0; i < segments.size(); i++) {
      sink.accept(keys.get(i), segments.get(i));
    }
  }

  private boolean matchesExactly(String segment, String key) {
    Matcher m = pattern.matcher(segment);
    return m.find() && m.group().equals(key) && !m.find();
  }

  @Override
  public String keyOfRecord(String record) {
    Matcher m = pattern.matcher(record);
    return m.find() ? m.group() : null;
  }

  /** @return entries kept whole although they match more than one string */
  public long unsplittableEntries() {
    return unsplittable;
  }

  @Override
  public String describe() {
    return "grep:" + regex;
  }
}
