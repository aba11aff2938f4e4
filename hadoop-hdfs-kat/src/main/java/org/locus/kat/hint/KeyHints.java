package org.locus.kat.hint;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Parses a hint specification, as given to {@code locus kat import --extractor} and recorded in
 * a dataset's placement map:
 * {@code wordcount}, {@code grep:REGEX}, {@code field:N,DELIM} (DELIM defaults to a tab),
 * {@code class:FQCN}.
 */
public final class KeyHints {
  private KeyHints() {
  }

  /**
   * @return a new hint instance for {@code spec}
   * @throws IllegalArgumentException naming what is wrong with the spec
   */
  public static KeyHint parse(String spec, Configuration conf) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("no key extractor given; use wordcount, grep:REGEX,"
          + " field:N,DELIM or class:FQCN");
    }
    if (spec.equals("wordcount")) {
      return new WordCountHint();
    }
    if (spec.startsWith("grep:")) {
      return new GrepHint(spec.substring("grep:".length()));
    }
    if (spec.startsWith("field:")) {
      String rest = spec.substring("field:".length());
      int comma = rest.indexOf(',');
      String number = comma < 0 ? rest : rest.substring(0, comma);
      String delimiter = comma < 0 ? "\t" : rest.substring(comma + 1);
      try {
        return new FieldHint(Integer.parseInt(number.trim()), delimiter);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("field extractor needs field:N,DELIM with a whole"
            + " number N, got '" + spec + "'");
      }
    }
    if (spec.startsWith("class:")) {
      String name = spec.substring("class:".length());
      Class<?> type;
      try {
        type = conf.getClassByName(name);
      } catch (ClassNotFoundException e) {
        throw new IllegalArgumentException("key hint class " + name + " is not on the"
            + " classpath");
      }
      if (!KeyHint.class.isAssignableFrom(type)) {
        throw new IllegalArgumentException("class " + name + " does not implement "
            + KeyHint.class.getName());
      }
      return (KeyHint) ReflectionUtils.newInstance(type, conf);
    }
    throw new IllegalArgumentException("unknown key extractor '" + spec + "'; use wordcount,"
        + " grep:REGEX, field:N,DELIM or class:FQCN");
  }
}
