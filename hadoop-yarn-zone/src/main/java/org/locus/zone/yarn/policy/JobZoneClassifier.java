package org.locus.zone.yarn.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Decides an application's zone class from its name: the first of an ordered list of regular
 * expressions found in the name gives the class, else the default class. This is the job-name
 * map of issue 5; a classification profile (seed 002 §4.1, {@code zonectl classify}) is how an
 * operator decides which names belong in which class.
 */
public final class JobZoneClassifier {

  private final List<Rule> rules;
  private final ZoneClass defaultClass;

  private record Rule(Pattern pattern, ZoneClass zoneClass) {
  }

  private JobZoneClassifier(List<Rule> rules, ZoneClass defaultClass) {
    this.rules = List.copyOf(rules);
    this.defaultClass = defaultClass;
  }

  /**
   * Builds a classifier from {@code regex=class} entries.
   *
   * @param key the configuration key the entries came from, named in error messages
   */
  public static JobZoneClassifier fromEntries(String[] entries, ZoneClass defaultClass,
      String key) {
    List<Rule> rules = new ArrayList<>();
    for (String raw : entries) {
      String entry = raw.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.lastIndexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            key + ": entry '" + entry + "' is not of the form regex=temp|perm");
      }
      ZoneClass zoneClass =
          ZoneClass.parse(entry.substring(eq + 1), key + " entry '" + entry + "'");
      try {
        rules.add(new Rule(Pattern.compile(entry.substring(0, eq)), zoneClass));
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            key + ": entry '" + entry + "' has a bad regular expression: " + e.getDescription(),
            e);
      }
    }
    return new JobZoneClassifier(rules, defaultClass);
  }

  /** The class of an application with this name; {@code null} gives the default class. */
  public ZoneClass classify(String applicationName) {
    if (applicationName == null) {
      return defaultClass;
    }
    for (Rule rule : rules) {
      if (rule.pattern().matcher(applicationName).find()) {
        return rule.zoneClass();
      }
    }
    return defaultClass;
  }

  public ZoneClass defaultClass() {
    return defaultClass;
  }
}
