package org.locus.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The shared fixture of the feature settings properties (issue 47 item 3): every key a
 * feature's daemon reads, given a hostile value on top of the feature's own
 * {@code conf/features/NAME.xml}, is either accepted or refused with an
 * {@link IllegalArgumentException} whose message is one line naming the key (and, for a value
 * out of range, the range); never another exception from deep inside. One subclass per feature
 * names the file, the {@code *ConfigKeys} class and the parser the daemon runs.
 *
 * <p>The keys are every {@code String} constant of the {@code *ConfigKeys} class that names a
 * key (not a {@code _DEFAULT}), plus every {@code locus.NAME.*} key of the feature file, which
 * must be among them: one source of truth per key. (Keys of other modules a feature file sets,
 * such as {@code locus.placement.rules}, and Hadoop's own keys are their parsers' business.)
 * Tries: 500 in the suite ({@code junit-platform.properties}); {@code scripts/fuzz --java N}
 * runs N.
 */
public abstract class FeatureSettingsProperties {

  /** @return the feature's name: {@code conf/features/NAME.xml} */
  protected abstract String feature();

  /** @return the module's {@code *ConfigKeys} class */
  protected abstract Class<?> configKeys();

  /**
   * Runs the settings parser the feature's daemon runs at start-up.
   *
   * @throws IllegalArgumentException the refusal, whose message must name the key
   */
  protected abstract void parse(Configuration conf) throws Exception;

  /** @return whether {@link #parse} reads the key (not Hadoop itself, nor another parser) */
  protected boolean parsedHere(String key) {
    return true;
  }

  /** Values the fixture sets before the feature file is applied; the hostile key overrides. */
  protected Map<String, String> baseValues() {
    return Map.of();
  }

  @Property
  void everyKeyWithAHostileValueIsAcceptedOrRefusedInOneLineNamingIt(
      @ForAll("keys") String key, @ForAll("hostile") String value) throws Exception {
    Configuration conf = featureConf();
    conf.set(key, value);
    assertAcceptedOrRefused(key, value, conf);
  }

  @Example
  void theFeatureFileItselfIsAccepted() throws Exception {
    parse(featureConf());
  }

  @Example
  void everyLocusKeyOfTheFeatureFileIsAConfigKeysConstant() {
    List<String> constants = keyConstants();
    for (Map.Entry<String, String> e : fileOnly()) {
      if (e.getKey().startsWith(prefix())) {
        assertTrue(constants.contains(e.getKey()), e.getKey() + " of " + featureFile()
            + " is not a constant of " + configKeys().getSimpleName());
      }
    }
  }

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.of(parsedKeys());
  }

  @Provide
  Arbitrary<String> hostile() {
    return HostileValues.any();
  }

  private void assertAcceptedOrRefused(String key, String value, Configuration conf)
      throws Exception {
    try {
      parse(conf);
    } catch (IllegalArgumentException e) {
      String message = e.getMessage();
      if (message == null || !message.contains(key) || message.contains("\n")) {
        fail(key + " = '" + value + "' was refused without one line naming the key: " + e, e);
      }
    }
  }

  protected final Configuration featureConf() {
    Configuration conf = new Configuration(false);
    baseValues().forEach(conf::set);
    conf.addResource(new Path(featureFile().toURI()));
    return conf;
  }

  private String prefix() {
    return "locus." + feature() + ".";
  }

  private File featureFile() {
    File f = new File("../conf/features/" + feature() + ".xml");
    assertTrue(f.isFile(), "no feature file " + f.getAbsolutePath());
    return f;
  }

  private Iterable<Map.Entry<String, String>> fileOnly() {
    Configuration conf = new Configuration(false);
    conf.addResource(new Path(featureFile().toURI()));
    return conf;
  }

  private List<String> keyConstants() {
    List<String> keys = new ArrayList<>();
    for (Field f : configKeys().getDeclaredFields()) {
      int m = f.getModifiers();
      if (f.getType() == String.class && Modifier.isStatic(m) && Modifier.isFinal(m)
          && !f.getName().endsWith("_DEFAULT")) {
        try {
          f.setAccessible(true);
          keys.add((String) f.get(null));
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
    return keys;
  }

  private List<String> parsedKeys() {
    TreeSet<String> keys = new TreeSet<>(keyConstants());
    for (Map.Entry<String, String> e : fileOnly()) {
      if (e.getKey().startsWith(prefix())) {
        keys.add(e.getKey());
      }
    }
    keys.removeIf(k -> !parsedHere(k));
    assertEquals(false, keys.isEmpty(), "no keys for " + feature());
    return new ArrayList<>(keys);
  }
}
