package org.locus.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.locus.bench.replay.ReplayedJob;

/**
 * A trace replay as a timeline, written as SVG: one row per job in submission order, a bar from
 * its submission to its completion, a tick where the trace planned its submission. Green: the
 * job succeeded and moved its byte targets; orange: succeeded off target; red: failed. Shows at
 * a glance how many jobs overlapped and whether the cluster kept pace with the trace.
 */
public final class ReplayTimelineSvg {
  private static final int WIDTH = 760;
  private static final int LEFT = 60;
  private static final int RIGHT = 20;
  private static final int TOP = 46;
  private static final int BOTTOM = 74;
  private static final int ROW = 6;

  private ReplayTimelineSvg() {
  }

  /** Writes {@code jobs} (any order) as a timeline titled {@code title}. */
  public static void write(Path file, String title, List<ReplayedJob> jobs) throws IOException {
    List<ReplayedJob> rows = jobs.stream()
        .sorted(Comparator.comparingLong(ReplayedJob::submittedMillis)).toList();
    long end = Math.max(1, rows.stream().mapToLong(j -> Math.max(j.finishedMillis(),
        j.plannedMillis())).max().orElse(1));
    double seconds = end / 1000.0;
    double step = tickStep(seconds);
    int plotWidth = WIDTH - LEFT - RIGHT;
    int plotHeight = Math.max(ROW, rows.size() * ROW);
    int height = TOP + plotHeight + BOTTOM;
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\""
        + " width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH,
        height));
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\""
        + " text-anchor=\"middle\">%s</text>%n", WIDTH / 2, BarChartSvg.escape(title)));
    int baseY = TOP + plotHeight;
    for (double t = 0; t <= seconds + 1e-9; t += step) {
      double x = LEFT + plotWidth * t / seconds;
      svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
          + " stroke=\"#dddddd\"/>%n", x, TOP, x, baseY));
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
          + "%s</text>%n", x, baseY + 16, format(t)));
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
        + "seconds from the replay's start</text>%n", LEFT + plotWidth / 2, baseY + 34));
    svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16"
        + " %d)\" text-anchor=\"middle\">jobs, in submission order</text>%n",
        TOP + plotHeight / 2, TOP + plotHeight / 2));
    for (int i = 0; i < rows.size(); i++) {
      ReplayedJob job = rows.get(i);
      double x0 = LEFT + plotWidth * job.submittedMillis() / (double) end;
      double x1 = LEFT + plotWidth * job.finishedMillis() / (double) end;
      double planned = LEFT + plotWidth * job.plannedMillis() / (double) end;
      int y = TOP + i * ROW;
      svg.append(String.format(Locale.ROOT, "<rect class=\"job\" x=\"%.1f\" y=\"%d\""
          + " width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %.1f s</title></rect>%n", x0,
          y, Math.max(0.5, x1 - x0), ROW - 1, colour(job), BarChartSvg.escape(job.name()),
          job.wallMillis() / 1000.0));
      svg.append(String.format(Locale.ROOT, "<line class=\"planned\" x1=\"%.1f\" y1=\"%d\""
          + " x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>%n", planned, y, planned, y + ROW - 1));
    }
    svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
        + " stroke=\"black\"/>%n", LEFT, baseY, LEFT + plotWidth, baseY));
    int legendY = height - 14;
    String[][] legend = {{"#59a14f", "on target"}, {"#f28e2b", "off target"},
        {"#e15759", "failed"}};
    for (int i = 0; i < legend.length; i++) {
      int x = LEFT + i * 130;
      svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\""
          + " height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n", x, legendY - 9,
          legend[i][0], x + 16, legendY, legend[i][1]));
    }
    svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
        + " stroke=\"black\"/><text x=\"%d\" y=\"%d\">planned submission</text>%n",
        LEFT + 396, legendY - 10, LEFT + 396, legendY, LEFT + 404, legendY));
    svg.append("</svg>\n");
    Files.writeString(file, svg.toString(), StandardCharsets.UTF_8);
  }

  private static String colour(ReplayedJob job) {
    return !job.succeeded() ? "#e15759" : job.onTarget() ? "#59a14f" : "#f28e2b";
  }

  /** The smallest tick spacing of 1, 2 or 5 times a power of ten giving at most 10 ticks. */
  static double tickStep(double seconds) {
    double power = Math.pow(10, Math.floor(Math.log10(seconds / 10)));
    for (double factor : new double[] {1, 2, 5, 10}) {
      if (seconds / (factor * power) <= 10) {
        return factor * power;
      }
    }
    return 10 * power;
  }

  private static String format(double t) {
    return t == Math.rint(t) ? String.format(Locale.ROOT, "%.0f", t)
        : String.format(Locale.ROOT, "%.1f", t);
  }
}
