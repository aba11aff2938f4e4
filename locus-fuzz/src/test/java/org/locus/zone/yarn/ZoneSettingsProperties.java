package org.locus.zone.yarn;

import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.locus.fuzz.FeatureSettingsProperties;
import org.slf4j.LoggerFactory;

/**
 * The zone hook's keys through {@link JobAwareZoneService#serviceInit}: the NodeManager keeps
 * running and the hook stays off with one error line naming the key (docs/zone.md), which this
 * fixture turns into the refusal the shared property checks. Staying off without that line is
 * a failure too. The base values make the feature file's own settings complete (a device, an
 * outer size, and the hold method on a mount point, which its monitor needs; nothing runs at
 * start-up); the hostile key overrides them. (In this package: the constructor that takes a
 * name lookup is package-private.)
 */
class ZoneSettingsProperties extends FeatureSettingsProperties {
  private static final String OFF = "Zone placement is off on this node: ";

  @Override
  protected String feature() {
    return "zone";
  }

  @Override
  protected Class<?> configKeys() {
    return ZoneConfigKeys.class;
  }

  @Override
  protected Map<String, String> baseValues() {
    return Map.of(ZoneConfigKeys.DEVICE, "/dev/locus-fuzz-none",
        ZoneConfigKeys.OUTER_SIZE, "1G",
        ZoneConfigKeys.METHOD, "hold",
        ZoneConfigKeys.MOUNT_POINT, "/locus-fuzz/mnt");
  }

  @Override
  protected void parse(Configuration conf) throws Exception {
    LogCapturer logs = LogCapturer.captureLogs(
        LoggerFactory.getLogger(JobAwareZoneService.class));
    JobAwareZoneService service = new JobAwareZoneService(app -> null);
    try {
      service.init(conf);
      if (!service.isActive() && !"false".equals(conf.getTrimmed(ZoneConfigKeys.ENABLED))) {
        String out = logs.getOutput();
        int at = out.indexOf(OFF);
        if (at < 0) {
          throw new IllegalArgumentException("the hook is off without an error line");
        }
        int end = out.indexOf('\n', at);
        throw new IllegalArgumentException(out.substring(at + OFF.length(),
            end < 0 ? out.length() : end));
      }
    } finally {
      service.stop();
      logs.stopCapturing();
    }
  }
}
