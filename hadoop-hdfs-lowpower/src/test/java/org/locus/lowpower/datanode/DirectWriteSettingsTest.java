package org.locus.lowpower.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.locus.lowpower.LowpowerConfigKeys;

/** The direct-write keys: defaults, accepted forms, and errors that name the key. */
class DirectWriteSettingsTest {
  @Test
  void offByDefaultWithTheDefaultBuffer() {
    DirectWriteSettings settings = DirectWriteSettings.from(new Configuration(false));
    assertFalse(settings.enabled());
    assertEquals(LowpowerConfigKeys.DIRECT_BUFFER_BYTES_DEFAULT, settings.bufferBytes());
  }

  @Test
  void bufferTakesHadoopSizeSuffixes() {
    Configuration conf = conf(LowpowerConfigKeys.DIRECT_WRITES, " TRUE ");
    conf.set(LowpowerConfigKeys.DIRECT_BUFFER_BYTES, "256k");
    DirectWriteSettings settings = DirectWriteSettings.from(conf);
    assertTrue(settings.enabled());
    assertEquals(256 * 1024, settings.bufferBytes());
  }

  @Test
  void aToggleThatIsNotABooleanIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DirectWriteSettings.from(conf(LowpowerConfigKeys.DIRECT_WRITES, "yes")));
    assertEquals(LowpowerConfigKeys.DIRECT_WRITES + " must be true or false; got 'yes'",
        e.getMessage());
  }

  @Test
  void aBufferOutsideOnePageToSixtyFourMebibytesIsRefusedByName() {
    // a bare suffix ("m") made Hadoop's size parser throw StringIndexOutOfBounds (locus-fuzz)
    for (String bad : new String[] {"1k", "0", "65m", "lots", "m"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> DirectWriteSettings.from(conf(LowpowerConfigKeys.DIRECT_BUFFER_BYTES, bad)));
      assertTrue(e.getMessage().startsWith(LowpowerConfigKeys.DIRECT_BUFFER_BYTES + " must be"),
          e.getMessage());
      assertTrue(e.getMessage().endsWith("got '" + bad + "'"), e.getMessage());
    }
  }

  @Test
  void theFactoryRefusesABadValueBeforeBuildingADataset() {
    // No DataNode is needed: the settings are checked before Hadoop's dataset is built.
    IOException e = assertThrows(IOException.class, () -> new DirectWriteDatasetFactory()
        .newInstance(null, null, conf(LowpowerConfigKeys.DIRECT_WRITES, "on")));
    assertTrue(e.getMessage().contains(LowpowerConfigKeys.DIRECT_WRITES), e.getMessage());
  }

  private static Configuration conf(String key, String value) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    return conf;
  }
}
