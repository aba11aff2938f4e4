package org.locus.bench.gears;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Block-transfer connections a DataNode has accepted, as its own metrics count them (read from
 * its {@code /jmx}): every {@code WRITE_BLOCK} of HDFS's DataNode-to-DataNode transfer comes on
 * a connection of its own ({@code DataNodeActivity} {@code WriteBlockOpNumOps}), and every batch
 * on one ({@code LocusBatchTransfer-*} {@code TransferConnectionsAccepted}).
 */
final class DataNodeConnections {
  private static final int HTTP_PORT = 9864;
  private final ObjectMapper json = new ObjectMapper();

  /** @return the connections accepted so far by the DataNode at {@code host} */
  long accepted(String host) throws IOException {
    URL url = new URL("http://" + host + ":" + HTTP_PORT
        + "/jmx?qry=Hadoop:service=DataNode,name=*");
    HttpURLConnection connection = (HttpURLConnection) url.openConnection();
    connection.setConnectTimeout(5000);
    connection.setReadTimeout(10000);
    long total = 0;
    try (InputStream in = connection.getInputStream()) {
      for (JsonNode bean : json.readTree(in).path("beans")) {
        String name = bean.path("name").asText();
        if (name.contains("name=DataNodeActivity-")) {
          total += bean.path("WriteBlockOpNumOps").asLong();
        } else if (name.contains("name=LocusBatchTransfer-")) {
          total += bean.path("TransferConnectionsAccepted").asLong();
        }
      }
    } catch (IOException e) {
      throw new IOException("cannot read the connection counts of DataNode " + host + " ("
          + url + "): " + e.getMessage(), e);
    }
    return total;
  }
}
