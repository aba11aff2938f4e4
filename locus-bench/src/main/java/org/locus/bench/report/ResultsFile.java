package org.locus.bench.report;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.locus.bench.run.LinkBytes;
import org.locus.bench.run.RunRecord;

/**
 * {@code results.json}: what a bench ran and every run's measurements. Rewritten whole
 * (write then rename) after each run, so a killed bench leaves a valid file of its finished
 * runs and {@code --resume} can continue from it.
 *
 * <pre>
 * { "schema": "locus-bench-results/1", "suite": "puma-small", "cluster": "embedded",
 *   "features": ["none", "kat"], "runs": 3, "jobs": ["wordcount", ...],
 *   "results": [ { "job": "wordcount", "feature": "none", "run": 1, "succeeded": true,
 *                  "wallMillis": 12345, "keyAware": false, "counters": { "MAP_OUTPUT_BYTES": 1, ... },
 *                  "linkBytes": { "node1": { "sent": 1, "received": 2 }, ... } }, ... ] }
 * </pre>
 * {@code linkBytes} is there only when the cluster counts its links (a netns cluster).
 */
public final class ResultsFile {
  public static final String SCHEMA = "locus-bench-results/1";
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private final String suite;
  private final String cluster;
  private final List<String> features;
  private final int runs;
  private final List<String> jobs;
  private final Map<String, RunRecord> records = new LinkedHashMap<>();

  public ResultsFile(String suite, String cluster, List<String> features, int runs,
      List<String> jobs) {
    this.suite = suite;
    this.cluster = cluster;
    this.features = List.copyOf(features);
    this.runs = runs;
    this.jobs = List.copyOf(jobs);
  }

  public void add(RunRecord record) {
    records.put(record.key(), record);
  }

  /** @return whether (job, feature, run) has a successful record */
  public boolean done(String job, String feature, int run) {
    RunRecord record = records.get(job + "|" + feature + "|" + run);
    return record != null && record.succeeded();
  }

  public List<RunRecord> records() {
    return new ArrayList<>(records.values());
  }

  /** Writes the file atomically. */
  public void write(File file) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("schema", SCHEMA);
    root.put("suite", suite);
    root.put("cluster", cluster);
    features.forEach(root.putArray("features")::add);
    root.put("runs", runs);
    jobs.forEach(root.putArray("jobs")::add);
    ArrayNode results = root.putArray("results");
    for (RunRecord record : records.values()) {
      ObjectNode node = results.addObject();
      node.put("job", record.job());
      node.put("feature", record.feature());
      node.put("run", record.run());
      node.put("succeeded", record.succeeded());
      node.put("wallMillis", record.wallMillis());
      node.put("keyAware", record.keyAware());
      ObjectNode counters = node.putObject("counters");
      record.counters().forEach(counters::put);
      if (!record.linkBytes().isEmpty()) {
        ObjectNode links = node.putObject("linkBytes");
        record.linkBytes().forEach((host, bytes) -> {
          ObjectNode link = links.putObject(host);
          link.put("sent", bytes.sent());
          link.put("received", bytes.received());
        });
      }
    }
    File temporary = new File(file.getPath() + ".tmp");
    JSON.writeValue(temporary, root);
    Files.move(temporary.toPath(), file.toPath(), StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Adds the records of an earlier file of the same suite to this one.
   *
   * @throws IOException if the file is unreadable or of another suite or cluster
   */
  public void resumeFrom(File file) throws IOException {
    JsonNode root = JSON.readTree(file);
    if (!SCHEMA.equals(root.path("schema").asText())
        || !suite.equals(root.path("suite").asText())
        || !cluster.equals(root.path("cluster").asText())) {
      throw new IOException(file + " is not a " + SCHEMA + " file of suite " + suite
          + " on cluster " + cluster + "; use another --out or drop --resume");
    }
    for (JsonNode node : root.path("results")) {
      Map<String, Long> counters = new LinkedHashMap<>();
      node.path("counters").fields().forEachRemaining(e -> counters.put(e.getKey(),
          e.getValue().asLong()));
      Map<String, LinkBytes> links = new LinkedHashMap<>();
      node.path("linkBytes").fields().forEachRemaining(e -> links.put(e.getKey(),
          new LinkBytes(e.getValue().path("sent").asLong(),
              e.getValue().path("received").asLong())));
      add(new RunRecord(node.path("job").asText(), node.path("feature").asText(),
          node.path("run").asInt(), node.path("succeeded").asBoolean(),
          node.path("wallMillis").asLong(), node.path("keyAware").asBoolean(), counters,
          links));
    }
  }
}
