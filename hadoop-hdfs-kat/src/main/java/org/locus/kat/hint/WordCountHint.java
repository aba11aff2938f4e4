package org.locus.kat.hint;

import java.util.StringTokenizer;

/**
 * WordCount's hint: every whitespace-separated token is its own intermediate key, so an entry is
 * split into one record per token. WordCount over the records counts exactly the same tokens as
 * over the original lines (it splits on the same whitespace).
 */
public final class WordCountHint implements KeyHint {
  @Override
  public void split(String entry, RecordSink sink) {
    StringTokenizer tokens = new StringTokenizer(entry);
    while (tokens.hasMoreTokens()) {
      String token = tokens.nextToken();
      sink.accept(token, token);
    }
  }

  @Override
  public String keyOfRecord(String record) {
    String token = record.trim();
    return token.isEmpty() ? null : token;
  }

  @Override
  public String describe() {
    return "wordcount";
  }
}
