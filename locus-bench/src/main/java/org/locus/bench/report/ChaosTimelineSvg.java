package org.locus.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.locus.bench.chaos.ChaosResult;
import org.locus.bench.chaos.CheckedJob;
import org.locus.bench.chaos.FaultInjector;
import org.locus.bench.chaos.HealthSampler;

/**
 * A chaos run as one picture, written as SVG, on one time axis in minutes: on top, one row per
 * worker with a bar for each time one of its daemons was down (red: DataNode, purple:
 * NodeManager); in the middle, one row per job from submission to completion (blue: replayed
 * trace job, green: checked WordCount counted right, orange: counted wrong, red: failed); at the
 * bottom, the NameNode's under-replicated blocks.
 */
public final class ChaosTimelineSvg {
  private static final int WIDTH = 900;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int NODE_ROW = 14;
  private static final int JOB_ROW = 4;
  private static final int CHART = 120;

  private ChaosTimelineSvg() {
  }

  /** A daemon's time down, from the injector's events. */
  record Outage(String node, String role, long fromMillis, long toMillis) {
  }

  /** @return each kill paired with the restart that followed it (or the end) */
  static List<Outage> outages(List<FaultInjector.Event> events, long endMillis) {
    List<Outage> outages = new ArrayList<>();
    List<FaultInjector.Event> open = new ArrayList<>();
    for (FaultInjector.Event e : events) {
      if (e.action().equals("killed")) {
        open.add(e);
      } else if (e.action().equals("restarted")) {
        for (FaultInjector.Event k : open) {
          if (k.node().equals(e.node()) && k.role().equals(e.role())) {
            outages.add(new Outage(k.node(), k.role(), k.atMillis(), e.atMillis()));
            open.remove(k);
            break;
          }
        }
      }
    }
    open.forEach(k -> outages.add(new Outage(k.node(), k.role(), k.atMillis(), endMillis)));
    return outages;
  }

  public static void write(Path file, ChaosResult result, int nodes) throws IOException {
    long end = Math.max(1, Math.max(result.wallMillis(), result.jobs().stream()
        .mapToLong(CheckedJob::endMillis).max().orElse(1)));
    double minutes = end / 60_000.0;
    int plot = WIDTH - LEFT - RIGHT;
    List<CheckedJob> jobs = result.jobs().stream()
        .sorted(Comparator.comparingLong(CheckedJob::startMillis)).toList();
    int nodesTop = 50;
    int jobsTop = nodesTop + nodes * NODE_ROW + 24;
    int chartTop = jobsTop + Math.max(JOB_ROW, jobs.size() * JOB_ROW) + 24;
    int axisY = chartTop + CHART;
    int height = axisY + 70;
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\""
        + " width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n", WIDTH,
        height));
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"14\""
        + " text-anchor=\"middle\">%s</text>%n", WIDTH / 2, BarChartSvg.escape(String.format(
        Locale.ROOT, "Chaos run: %d kills, %d jobs (%d failed), fsck %s", result.kills(),
        jobs.size(), result.failedJobs().size(), result.fsck().healthy() ? "HEALTHY"
        : "NOT HEALTHY"))));
    double step = minutes <= 10 ? 1 : minutes <= 30 ? 5 : 10;
    for (double t = 0; t <= minutes + 1e-9; t += step) {
      double x = LEFT + plot * t / minutes;
      svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
          + " stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>%n",
          x, nodesTop, x, axisY, x, axisY + 16, t));
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
        + "minutes from the first fault's clock start</text>%n", LEFT + plot / 2, axisY + 32));
    for (int n = 1; n <= nodes; n++) {
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">node%d"
          + "</text>%n", LEFT - 6, nodesTop + (n - 1) * NODE_ROW + 10, n));
    }
    for (Outage o : outages(result.events(), end)) {
      int row = Integer.parseInt(o.node().replace("node", "")) - 1;
      double x0 = LEFT + plot * o.fromMillis() / (double) end;
      double x1 = LEFT + plot * o.toMillis() / (double) end;
      svg.append(String.format(Locale.ROOT, "<rect class=\"outage\" x=\"%.1f\" y=\"%d\""
          + " width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %s down %.0f s</title></rect>%n",
          x0, nodesTop + row * NODE_ROW, Math.max(1, x1 - x0), NODE_ROW - 3,
          o.role().equals("datanode") ? "#e15759" : "#b07aa1", o.node(), o.role(),
          (o.toMillis() - o.fromMillis()) / 1000.0));
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">jobs"
        + "</text>%n", LEFT - 6, jobsTop + 10));
    for (int i = 0; i < jobs.size(); i++) {
      CheckedJob job = jobs.get(i);
      double x0 = LEFT + plot * job.startMillis() / (double) end;
      double x1 = LEFT + plot * job.endMillis() / (double) end;
      svg.append(String.format(Locale.ROOT, "<rect class=\"job\" x=\"%.1f\" y=\"%d\""
          + " width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s%s</title></rect>%n", x0,
          jobsTop + i * JOB_ROW, Math.max(1, x1 - x0), JOB_ROW - 1, colour(job),
          BarChartSvg.escape(job.name()), BarChartSvg.escape(job.reason().isEmpty() ? ""
              : ": " + job.reason())));
    }
    long peak = Math.max(1, result.peakUnderReplicated());
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>"
        + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>%n", LEFT - 6, chartTop + 10, peak,
        LEFT - 6, axisY));
    svg.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)"
        + "\" text-anchor=\"middle\">under-replicated</text>%n", chartTop + CHART / 2,
        chartTop + CHART / 2));
    StringBuilder points = new StringBuilder();
    for (HealthSampler.Sample s : result.samples()) {
      if (s.underReplicated() < 0) {
        continue;
      }
      points.append(String.format(Locale.ROOT, "%.1f,%.1f ",
          LEFT + plot * s.atMillis() / (double) end,
          axisY - CHART * s.underReplicated() / (double) peak));
    }
    svg.append(String.format(Locale.ROOT, "<polyline class=\"under\" points=\"%s\" fill=\"none\""
        + " stroke=\"#4e79a7\" stroke-width=\"1.5\"/>%n", points.toString().trim()));
    svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
        + " stroke=\"black\"/>%n", LEFT, axisY, LEFT + plot, axisY));
    String[][] legend = {{"#e15759", "DataNode down / job failed"}, {"#b07aa1",
        "NodeManager down"}, {"#76b7b2", "SWIM job"}, {"#59a14f", "WordCount right"},
        {"#f28e2b", "WordCount wrong"}};
    for (int i = 0; i < legend.length; i++) {
      int x = LEFT + i * 165;
      svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\""
          + " fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n", x, height - 20, legend[i][0],
          x + 14, height - 11, legend[i][1]));
    }
    svg.append("</svg>\n");
    Files.writeString(file, svg.toString(), StandardCharsets.UTF_8);
  }

  private static String colour(CheckedJob job) {
    if (!job.succeeded()) {
      return "#e15759";
    }
    if (job.checked()) {
      return job.correct() ? "#59a14f" : "#f28e2b";
    }
    return "#76b7b2";
  }
}
