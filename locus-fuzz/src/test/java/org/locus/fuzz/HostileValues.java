package org.locus.fuzz;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Values an operator can put in a configuration key that a feature's parser must survive: wrong
 * types, negative and huge numbers, sizes with bad suffixes, unknown class names, paths where
 * numbers belong and numbers where paths belong, and arbitrary text. One line each: Hadoop
 * configuration values are single lines in practice, and a refusal that echoes a value must stay
 * one line.
 */
public final class HostileValues {
  private HostileValues() {
  }

  /** @return any hostile value: the union of the kinds below */
  public static Arbitrary<String> any() {
    return Arbitraries.oneOf(numbers(), wrongTypes(), classNames(), sizes(), text());
  }

  /** Whole and real numbers at and beyond every range: negative, zero, huge, overflowing. */
  public static Arbitrary<String> numbers() {
    return Arbitraries.oneOf(
        Arbitraries.longs().map(String::valueOf),
        Arbitraries.integers().between(-3, 3).map(String::valueOf),
        Arbitraries.doubles().map(String::valueOf),
        Arbitraries.of("9223372036854775808", "-9223372036854775809",
            "99999999999999999999999", "2147483648", "-2147483649", "1e400", "-1e400", "1e-400",
            "NaN", "Infinity", "-Infinity", "-0", "0x10", "1_000", "+5", "07", "1.5", "-0.0",
            "4.9E-324", "1e9", "1,5"));
  }

  /** Text of the wrong type for the key: booleans, words, paths, URIs, blanks. */
  public static Arbitrary<String> wrongTypes() {
    return Arbitraries.of("", " ", "true", "false", "TRUE", "yes", "no", "on", "1", "0", "abc",
        "null", "/", "/nonexistent/dir", "relative/path", "a:b", "hdfs://nn:8020/x",
        "file:///tmp", "C:\\x", "..", "${locus.fuzz.undefined}", "\t", "\u00e9t\u00e9",
        ",", ",,", "a,,b", "=", "{mount-point}", "(?i)^sort=", "[", "*=temp", "temp", "perm");
  }

  /** Class names: unknown, not a plug-in, malformed. */
  public static Arbitrary<String> classNames() {
    return Arbitraries.of("org.example.NoSuchClass", "java.lang.String", "java.lang.Object",
        "org.locus.NoSuch", "1abc", "org..Bad", "org.apache.hadoop.conf.Configuration",
        "org.example.NoSuchClass,java.lang.String");
  }

  /** Sizes with and without suffixes, negative, overflowing, with unknown suffixes. */
  public static Arbitrary<String> sizes() {
    Arbitrary<String> suffix = Arbitraries.of("", "k", "m", "g", "t", "p", "e", "K", "M",
        "G", "b", "x", "kb", " m");
    return Arbitraries.longs().between(-5, Long.MAX_VALUE / 1024).flatMap(n ->
        suffix.map(s -> n + s));
  }

  /** Arbitrary printable text without line breaks. */
  public static Arbitrary<String> text() {
    return Arbitraries.strings().ofMaxLength(24).filter(s -> s.indexOf('\n') < 0
        && s.indexOf('\r') < 0);
  }
}
