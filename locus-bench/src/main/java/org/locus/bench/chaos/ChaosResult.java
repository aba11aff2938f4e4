package org.locus.bench.chaos;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a chaos run found, and its verdict: the run passes when {@code fsck /} is HEALTHY with
 * no missing or corrupt block, every checked WordCount that finished counted right, every job
 * that failed says why, and at least one fault was carried out.
 *
 * @param settings what the run did
 * @param schedule the kills planned
 * @param events what the injector did
 * @param jobs every job, replayed and checked
 * @param samples the NameNode's block health over the run
 * @param fsck what {@code fsck /} found at the end
 * @param applications YARN applications that failed or were killed, with YARN's reason, and
 *     those whose ApplicationMaster was retried
 * @param wallMillis the run from its first fault's clock start to the end of the checks
 */
public record ChaosResult(ChaosSettings settings, ChaosSchedule schedule,
    List<FaultInjector.Event> events, List<CheckedJob> jobs, List<HealthSampler.Sample> samples,
    Fsck fsck, List<Application> applications, long wallMillis) {

  /**
   * {@code fsck /} at the end of the run.
   *
   * @param healthy whether it reported the file system HEALTHY
   * @param missing missing blocks it counted
   * @param corrupt corrupt blocks it counted
   * @param underReplicated under-replicated blocks it counted
   * @param report its output's summary lines
   */
  public record Fsck(boolean healthy, long missing, long corrupt, long underReplicated,
      String report) {
  }

  /**
   * A YARN application of the run worth reporting.
   *
   * @param id its application id
   * @param name its name
   * @param state its final YARN state
   * @param attempts ApplicationMaster attempts (more than 1: YARN retried a lost AM)
   * @param diagnostics YARN's reason, first line
   */
  public record Application(String id, String name, String state, int attempts,
      String diagnostics) {
  }

  public ChaosResult {
    events = List.copyOf(events);
    jobs = List.copyOf(jobs);
    samples = List.copyOf(samples);
    applications = List.copyOf(applications);
  }

  /** @return the kills carried out */
  public long kills() {
    return events.stream().filter(e -> e.action().equals("killed")).count();
  }

  /** @return the jobs that failed */
  public List<CheckedJob> failedJobs() {
    return jobs.stream().filter(j -> !j.succeeded()).toList();
  }

  /** @return the largest under-replicated count sampled */
  public long peakUnderReplicated() {
    return samples.stream().mapToLong(HealthSampler.Sample::underReplicated).max().orElse(0);
  }

  /** @return why the run fails; empty when it passes */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (kills() == 0) {
      problems.add("no fault was carried out (run longer than --kill-every plus the down time)");
    }
    if (!fsck.healthy() || fsck.missing() > 0 || fsck.corrupt() > 0) {
      problems.add(String.format(Locale.ROOT, "fsck: %s, %d missing, %d corrupt blocks",
          fsck.healthy() ? "HEALTHY" : "not HEALTHY", fsck.missing(), fsck.corrupt()));
    }
    for (CheckedJob job : jobs) {
      if (job.checked() && !job.correct()) {
        problems.add(job.name() + " counted wrong: " + job.reason());
      }
      if (!job.succeeded() && job.reason().isBlank()) {
        problems.add(job.name() + " failed without a reason");
      }
    }
    events.stream().filter(e -> e.action().equals("failed")).forEach(e -> problems.add(
        "the injector could not " + e.detail() + " (" + e.node() + " " + e.role() + ")"));
    return problems;
  }

  /** @return whether the run passes */
  public boolean passed() {
    return problems().isEmpty();
  }

  /** @return the numbers, as a Markdown table and the verdict */
  public String table() {
    long checked = jobs.stream().filter(CheckedJob::checked).count();
    long correct = jobs.stream().filter(CheckedJob::correct).count();
    long swim = jobs.stream().filter(j -> j.kind().equals("swim")).count();
    long swimOk = jobs.stream().filter(j -> j.kind().equals("swim") && j.succeeded()).count();
    long retried = applications.stream().filter(a -> a.attempts() > 1).count();
    StringBuilder t = new StringBuilder();
    t.append("| measure | value |\n| --- | ---: |\n");
    row(t, "run length", String.format(Locale.ROOT, "%.1f min", wallMillis / 60_000.0));
    row(t, "seed", Long.toString(schedule.seed()));
    row(t, "kills (SIGKILL) carried out", kills() + " of " + schedule.faults().size()
        + " planned");
    row(t, "  of which DataNodes", Long.toString(killsOf("datanode")));
    row(t, "  of which NodeManagers", Long.toString(killsOf("nodemanager")));
    row(t, "SWIM jobs succeeded", swimOk + " of " + swim);
    row(t, "checked WordCounts correct", correct + " of " + checked + " that finished ("
        + jobs.stream().filter(j -> j.kind().equals("wordcount")).count() + " submitted)");
    row(t, "jobs failed (each with its reason)", Integer.toString(failedJobs().size()));
    row(t, "YARN applications with a retried ApplicationMaster", Long.toString(retried));
    row(t, "peak under-replicated blocks", Long.toString(peakUnderReplicated()));
    row(t, "fsck /", (fsck.healthy() ? "HEALTHY" : "NOT HEALTHY") + ", " + fsck.missing()
        + " missing, " + fsck.corrupt() + " corrupt");
    t.append('\n').append(passed() ? "PASSED" : "FAILED: " + String.join("; ", problems()))
        .append('\n');
    return t.toString();
  }

  private long killsOf(String role) {
    return events.stream().filter(e -> e.action().equals("killed") && e.role().equals(role))
        .count();
  }

  private static void row(StringBuilder t, String name, String value) {
    t.append("| ").append(name).append(" | ").append(value).append(" |\n");
  }

  /** Writes the whole result as JSON. */
  public void write(File file) throws IOException {
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = json.createObjectNode();
    root.put("passed", passed());
    root.putPOJO("problems", problems());
    ObjectNode s = root.putObject("settings");
    s.put("durationMillis", settings.durationMillis());
    s.put("killEveryMillis", settings.everyMillis());
    s.put("downMillis", settings.minDownMillis() + "-" + settings.maxDownMillis());
    s.put("seed", settings.seed());
    s.put("checkEveryMillis", settings.checkEveryMillis());
    s.put("trace", settings.trace().name());
    s.put("traceHours", settings.traceHours());
    s.put("compression", settings.compression());
    s.putPOJO("roles", settings.roles());
    root.put("wallMillis", wallMillis);
    ArrayNode faults = root.putArray("schedule");
    schedule.faults().forEach(f -> faults.addPOJO(f));
    ArrayNode ev = root.putArray("events");
    events.forEach(ev::addPOJO);
    ArrayNode js = root.putArray("jobs");
    jobs.forEach(js::addPOJO);
    ArrayNode sm = root.putArray("samples");
    samples.forEach(sm::addPOJO);
    root.putPOJO("fsck", fsck);
    ArrayNode apps = root.putArray("applications");
    applications.forEach(apps::addPOJO);
    json.writeValue(file, root);
  }
}
