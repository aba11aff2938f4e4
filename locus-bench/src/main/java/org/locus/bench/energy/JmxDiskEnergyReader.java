package org.locus.bench.energy;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.locus.energy.accounting.DiskEnergy;
import org.locus.energy.datanode.EnergyMetricsInfo;

/**
 * Reads every DataNode's disk energy accounts the Hadoop way: the power manager's metrics2
 * source as JSON from the DataNode's {@code /jmx} servlet
 * ({@code qry=Hadoop:service=*,name=LocusEnergy-*}; the service is {@code DataNode}, or
 * {@code NameNode} when an embedded cluster shares one metrics system). A source with several
 * records is flattened by Hadoop as {@code tag.Volume}, {@code EnergyJoules},
 * {@code tag.Volume.1}, {@code EnergyJoules.1}, ...
 */
public final class JmxDiskEnergyReader {
  private final ObjectMapper json = new ObjectMapper();

  /** @return every disk of every live DataNode, one entry per disk */
  public List<DiskEnergy> read(DistributedFileSystem fs) throws IOException {
    Map<String, DiskEnergy> disks = new LinkedHashMap<>();
    for (DatanodeInfo dn : fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE)) {
      URL url = new URL("http://" + dn.getInfoAddr()
          + "/jmx?qry=Hadoop:service=*,name=" + EnergyMetricsInfo.SOURCE_PREFIX + "*");
      HttpURLConnection connection = (HttpURLConnection) url.openConnection();
      connection.setConnectTimeout(5000);
      // a first /jmx of a JVM on a busy two-core host took over 10 s here
      connection.setReadTimeout(60_000);
      try (InputStream in = connection.getInputStream()) {
        for (JsonNode bean : json.readTree(in).path("beans")) {
          for (DiskEnergy disk : parseBean(bean)) {
            disks.put(disk.host() + disk.volume(), disk);
          }
        }
      } catch (IOException e) {
        throw new IOException("cannot read energy metrics from DataNode " + dn.getInfoAddr()
            + " (" + url + "): " + e.getMessage(), e);
      }
    }
    return new ArrayList<>(disks.values());
  }

  static List<DiskEnergy> parseBean(JsonNode bean) {
    List<DiskEnergy> disks = new ArrayList<>();
    for (int rec = 0; bean.has(name(EnergyMetricsInfo.Volume.jmxTag(), rec)); rec++) {
      int r = rec;
      disks.add(new DiskEnergy(
          bean.path(name(EnergyMetricsInfo.Host.jmxTag(), r)).asText(),
          bean.path(name(EnergyMetricsInfo.Volume.jmxTag(), r)).asText(),
          EnergyMetricsInfo.BACKUP.equals(
              bean.path(name(EnergyMetricsInfo.Role.jmxTag(), r)).asText()),
          bean.path(name(EnergyMetricsInfo.State.jmxTag(), r)).asText(),
          value(bean, EnergyMetricsInfo.ActiveMillis, r).asLong(),
          value(bean, EnergyMetricsInfo.IdleMillis, r).asLong(),
          value(bean, EnergyMetricsInfo.StandbyMillis, r).asLong(),
          value(bean, EnergyMetricsInfo.WakingMillis, r).asLong(),
          value(bean, EnergyMetricsInfo.EnergyJoules, r).asDouble(),
          value(bean, EnergyMetricsInfo.BaselineJoules, r).asDouble(),
          value(bean, EnergyMetricsInfo.SpinUps, r).asLong(),
          value(bean, EnergyMetricsInfo.DemandStallMillis, r).asLong()));
    }
    return disks;
  }

  private static JsonNode value(JsonNode bean, EnergyMetricsInfo metric, int rec) {
    return bean.path(name(metric.name(), rec));
  }

  private static String name(String base, int rec) {
    return rec == 0 ? base : base + "." + rec;
  }
}
