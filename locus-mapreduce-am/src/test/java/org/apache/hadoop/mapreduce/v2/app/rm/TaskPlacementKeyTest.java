package org.apache.hadoop.mapreduce.v2.app.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.locus.mapreduce.am.LocusAmConfigKeys;
import org.locus.mapreduce.am.TaskPlacement;

/**
 * The AM builds the job's placement from {@code locus.am.task-placement}, hands it the job's
 * configuration, and refuses a missing, unknown or wrong class with the key and the class named.
 */
class TaskPlacementKeyTest {
  /** Reducer p on host "h" + p, as the configuration says; maps wait for their hosts. */
  public static final class NumberedHosts implements TaskPlacement, Configurable {
    private Configuration conf;

    @Override
    public void setConf(Configuration conf) {
      this.conf = conf;
    }

    @Override
    public Configuration getConf() {
      return conf;
    }

    @Override
    public String reducerHost(int partition) {
      return conf.get("test.host.prefix") + partition;
    }

    @Override
    public boolean mapsWaitForTheirHosts() {
      return true;
    }
  }

  private static Configuration withPlacement(String name) {
    Configuration conf = new Configuration(false);
    if (name != null) {
      conf.set(LocusAmConfigKeys.TASK_PLACEMENT, name);
    }
    return conf;
  }

  @Test
  void theNamedPlacementIsBuiltWithTheJobsConfiguration() {
    Configuration conf = withPlacement(NumberedHosts.class.getName());
    conf.set("test.host.prefix", "h");
    TaskPlacement placement = LocusRMContainerAllocator.createPlacement(conf);
    assertEquals("h3", placement.reducerHost(3));
    assertTrue(placement.mapsWaitForTheirHosts());
  }

  @Test
  void aJobWithoutAPlacementIsRefusedNamingTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LocusRMContainerAllocator.createPlacement(withPlacement(null)));
    assertTrue(e.getMessage().startsWith(LocusAmConfigKeys.TASK_PLACEMENT + " is not set"),
        e.getMessage());
  }

  @Test
  void anUnknownClassIsRefusedNamingTheClassAndTheClasspath() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LocusRMContainerAllocator.createPlacement(withPlacement("org.example.Nowhere")));
    assertTrue(e.getMessage().contains("org.example.Nowhere: no such class on the AM's"
        + " classpath"), e.getMessage());
  }

  @Test
  void aClassThatIsNoPlacementIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LocusRMContainerAllocator.createPlacement(withPlacement("java.lang.String")));
    assertTrue(e.getMessage().contains("java.lang.String is not a "
        + TaskPlacement.class.getName()), e.getMessage());
  }
}
