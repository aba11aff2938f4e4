package org.locus.mapreduce.am;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider;

/**
 * Hadoop's plug-in point for job submission (registered in
 * {@code META-INF/services/org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider}):
 * answers only jobs whose {@code mapreduce.framework.name} is {@value LocusAmConfigKeys#FRAMEWORK_NAME},
 * with a {@link LocusYarnRunner}. Every other job is left to Hadoop's own providers.
 */
public class LocusClientProtocolProvider extends ClientProtocolProvider {
  @Override
  public ClientProtocol create(Configuration conf) throws IOException {
    if (LocusAmConfigKeys.FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME))) {
      return new LocusYarnRunner(conf);
    }
    return null;
  }

  @Override
  public ClientProtocol create(InetSocketAddress addr, Configuration conf) throws IOException {
    return create(conf);
  }

  @Override
  public void close(ClientProtocol clientProtocol) throws IOException {
    if (clientProtocol instanceof LocusYarnRunner runner) {
      runner.close();
    }
  }
}
