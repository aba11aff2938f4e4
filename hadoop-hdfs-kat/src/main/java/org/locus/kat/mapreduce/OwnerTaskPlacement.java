package org.locus.kat.mapreduce;

import java.util.Arrays;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.locus.mapreduce.am.TaskPlacement;

/**
 * KAT's task placement under the Locus AM: reducer {@code p} runs on host {@code p} of
 * {@link KatJobKeys#HOSTS}, the owner of the keys of partition {@code p}, and a map waits for
 * the owner its split names, so every map output is produced and consumed on one host.
 */
public class OwnerTaskPlacement extends Configured implements TaskPlacement {
  private String[] hosts = new String[0];

  @Override
  public void setConf(Configuration conf) {
    super.setConf(conf);
    if (conf != null) {
      hosts = conf.getTrimmedStrings(KatJobKeys.HOSTS);
    }
  }

  @Override
  public String reducerHost(int partition) {
    return partition < hosts.length ? hosts[partition] : null;
  }

  @Override
  public boolean mapsWaitForTheirHosts() {
    return true;
  }

  @Override
  public String toString() {
    return "reducers on their owners " + Arrays.toString(hosts) + ", maps on theirs";
  }
}
