package org.locus.bench.replay;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.locus.jobs.swim.SwimScaling;

/**
 * {@code replay.json}, what a trace replay ran and how each job went, and its text summary.
 *
 * <pre>
 * { "schema": "locus-bench-replay/1", "trace": "fb2009", "hours": 1.0, "compression": 60.0,
 *   "scaling": { "divisor": 150.0, "minBytes": 65536, "maxBytes": 16777216 },
 *   "makespanMillis": 81234,
 *   "jobs": [ { "name": "job0", "traceSeconds": 49, "plannedMillis": 817,
 *               "submittedMillis": 818, "finishedMillis": 9120, "succeeded": true,
 *               "clipped": true, "onTarget": true,
 *               "target": { "input": 65536, "shuffle": 65536, "output": 65536 },
 *               "measured": { "input": 65536, "shuffle": 65612, "output": 65536 } }, ... ] }
 * </pre>
 */
public record ReplayFile(String trace, double hours, SwimScaling scaling, double compression,
    List<ReplayedJob> jobs) {
  public static final String SCHEMA = "locus-bench-replay/1";

  /** @return first submission to last completion */
  public long makespanMillis() {
    return jobs.stream().mapToLong(ReplayedJob::finishedMillis).max().orElse(0)
        - jobs.stream().mapToLong(ReplayedJob::submittedMillis).min().orElse(0);
  }

  public void write(File file) throws IOException {
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = json.createObjectNode();
    root.put("schema", SCHEMA);
    root.put("trace", trace);
    root.put("hours", hours);
    root.put("compression", compression);
    ObjectNode scale = root.putObject("scaling");
    scale.put("divisor", scaling.divisor());
    scale.put("minBytes", scaling.minBytes());
    scale.put("maxBytes", scaling.maxBytes());
    root.put("makespanMillis", makespanMillis());
    ArrayNode list = root.putArray("jobs");
    for (ReplayedJob job : jobs) {
      ObjectNode node = list.addObject();
      node.put("name", job.name());
      node.put("traceSeconds", job.traceSeconds());
      node.put("plannedMillis", job.plannedMillis());
      node.put("submittedMillis", job.submittedMillis());
      node.put("finishedMillis", job.finishedMillis());
      node.put("succeeded", job.succeeded());
      node.put("clipped", job.targets().clipped());
      node.put("onTarget", job.onTarget());
      ObjectNode target = node.putObject("target");
      target.put("input", job.targets().inputBytes());
      target.put("shuffle", job.targets().shuffleBytes());
      target.put("output", job.targets().outputBytes());
      ObjectNode measured = node.putObject("measured");
      measured.put("input", job.inputBytes());
      measured.put("shuffle", job.shuffleBytes());
      measured.put("output", job.outputBytes());
      if (job.error() != null) {
        node.put("error", job.error());
      }
    }
    File tmp = new File(file.getPath() + ".tmp");
    json.writeValue(tmp, root);
    if (!tmp.renameTo(file)) {
      throw new IOException("cannot rename " + tmp + " to " + file);
    }
  }

  /** @return a few lines for the terminal: counts, makespan, lateness, job times */
  public String summary() {
    long ok = jobs.stream().filter(ReplayedJob::succeeded).count();
    long onTarget = jobs.stream().filter(ReplayedJob::onTarget).count();
    long[] walls = jobs.stream().mapToLong(ReplayedJob::wallMillis).sorted().toArray();
    long maxLate = jobs.stream().mapToLong(ReplayedJob::lateMillis).max().orElse(0);
    return String.format(Locale.ROOT, "trace %s, first %s h, %s times faster: %d jobs, %d"
        + " succeeded, %d within %.0f %% of every byte target%n"
        + "makespan %.1f s; job wall time median %.1f s, max %.1f s; latest submission %d ms"
        + " behind plan%n", trace, hours, compression, jobs.size(), ok, onTarget,
        ReplayedJob.TOLERANCE * 100, makespanMillis() / 1000.0,
        walls.length == 0 ? 0 : walls[walls.length / 2] / 1000.0,
        walls.length == 0 ? 0 : walls[walls.length - 1] / 1000.0, maxLate);
  }
}
