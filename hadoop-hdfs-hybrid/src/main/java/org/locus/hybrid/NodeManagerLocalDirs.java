package org.locus.hybrid;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.xml.parsers.DocumentBuilderFactory;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Where MapReduce's intermediate data (map outputs, spills, shuffle copies) lives: each running
 * NodeManager's {@code yarn.nodemanager.local-dirs}, asked from the NodeManager itself through
 * the {@code /conf} page every Hadoop daemon serves, so the answer is what the daemon runs with,
 * not what a client's configuration guesses.
 */
public final class NodeManagerLocalDirs {
  static final String LOCAL_DIRS_KEY = "yarn.nodemanager.local-dirs";

  private NodeManagerLocalDirs() {
  }

  /**
   * @return node host → its local directories; empty when no NodeManager runs
   * @throws IOException naming the NodeManager whose page could not be read
   */
  public static Map<String, List<String>> of(Configuration conf) throws IOException {
    Map<String, List<String>> dirs = new TreeMap<>();
    Configuration bounded = new Configuration(conf);
    // a client waits 15 minutes for an absent ResourceManager by default; 10 s here
    bounded.setLong("yarn.resourcemanager.connect.max-wait.ms", 10_000);
    bounded.setLong("yarn.resourcemanager.connect.retry-interval.ms", 1_000);
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(bounded);
      yarn.start();
      for (NodeReport node : yarn.getNodeReports(NodeState.RUNNING)) {
        dirs.put(node.getNodeId().getHost(), ask(node.getHttpAddress()));
      }
    } catch (YarnException e) {
      throw new IOException("the ResourceManager did not list its NodeManagers: "
          + e.getMessage(), e);
    }
    return dirs;
  }

  private static List<String> ask(String httpAddress) throws IOException {
    URL url = new URL("http://" + httpAddress + "/conf?name=" + LOCAL_DIRS_KEY);
    HttpURLConnection http = (HttpURLConnection) url.openConnection();
    http.setConnectTimeout(10_000);
    http.setReadTimeout(10_000);
    http.setRequestProperty("Accept", "text/xml");
    try (InputStream in = http.getInputStream()) {
      NodeList properties = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in)
          .getElementsByTagName("property");
      for (int i = 0; i < properties.getLength(); i++) {
        Element property = (Element) properties.item(i);
        if (LOCAL_DIRS_KEY.equals(text(property, "name"))) {
          List<String> dirs = new ArrayList<>();
          for (String dir : text(property, "value").split(",")) {
            if (!dir.isBlank()) {
              dirs.add(dir.trim());
            }
          }
          return dirs;
        }
      }
      throw new IOException(url + " does not list " + LOCAL_DIRS_KEY);
    } catch (IOException e) {
      throw new IOException("cannot read " + LOCAL_DIRS_KEY + " from the NodeManager at " + url
          + ": " + e.getMessage(), e);
    } catch (Exception e) {
      throw new IOException("cannot parse " + url + ": " + e.getMessage(), e);
    } finally {
      http.disconnect();
    }
  }

  private static String text(Element parent, String tag) {
    NodeList nodes = parent.getElementsByTagName(tag);
    return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().trim();
  }
}
