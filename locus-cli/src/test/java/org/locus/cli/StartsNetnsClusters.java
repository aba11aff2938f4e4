package org.locus.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class that starts netns clusters. Such a class takes its turn on the machine
 * ({@link OneNetnsTestAtATime}) and carries the JUnit tag {@value #TAG}, by which scripts/test
 * runs these classes in a Maven run of their own from the suite's first minute, beside the
 * other modules' tests, instead of after them (docs/testing.md).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(StartsNetnsClusters.TAG)
@ExtendWith(OneNetnsTestAtATime.class)
public @interface StartsNetnsClusters {
  /** The tag Surefire selects on: {@code -Dgroups=netns} or {@code -DexcludedGroups=netns}. */
  String TAG = "netns";
}
