package org.locus.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A grouped bar chart written as SVG, so a benchmark report has its picture without any plotting
 * dependency: one group per category, one bar per series, values labelled above the bars.
 */
public final class BarChartSvg {
  private static final String[] COLOURS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
      "#76b7b2", "#b07aa1"};
  private static final int WIDTH = 720;
  private static final int HEIGHT = 360;
  private static final int LEFT = 70;
  private static final int BOTTOM = 60;
  private static final int TOP = 50;

  private BarChartSvg() {
  }

  /**
   * @param title chart title
   * @param yLabel meaning and unit of the values
   * @param categories one label per group
   * @param series names of the series, one bar of each per group
   * @param values {@code values[s][c]}: series s, category c; non-negative
   */
  public static void write(Path file, String title, String yLabel, List<String> categories,
      List<String> series, double[][] values) throws IOException {
    double max = 0;
    for (double[] row : values) {
      for (double v : row) {
        max = Math.max(max, v);
      }
    }
    max = max <= 0 ? 1 : max * 1.15;
    int plotWidth = WIDTH - LEFT - 20;
    int perRow = series.size() <= 3 ? 3 : 4;
    int legendWidth = (WIDTH - LEFT) / perRow;
    int rows = (series.size() + perRow - 1) / perRow;
    int plotHeight = HEIGHT - TOP - BOTTOM - 16 * (rows - 1);
    double groupWidth = (double) plotWidth / categories.size();
    double barWidth = groupWidth * 0.7 / series.size();
    StringBuilder svg = new StringBuilder();
    svg.append(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
        + " height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT));
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg.append(String.format("<text x=\"%d\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">"
        + "%s</text>%n", WIDTH / 2, escape(title)));
    svg.append(String.format("<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\""
        + " text-anchor=\"middle\">%s</text>%n", TOP + plotHeight / 2, TOP + plotHeight / 2,
        escape(yLabel)));
    int baseY = TOP + plotHeight;
    svg.append(String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
        LEFT, baseY, LEFT + plotWidth, baseY));
    for (int c = 0; c < categories.size(); c++) {
      double groupX = LEFT + c * groupWidth + groupWidth * 0.15;
      for (int s = 0; s < series.size(); s++) {
        double v = values[s][c];
        double h = plotHeight * v / max;
        double x = groupX + s * barWidth;
        svg.append(String.format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
            + " fill=\"%s\"/>%n", x, baseY - h, barWidth * 0.92, h, COLOURS[s % COLOURS.length]));
        svg.append(String.format("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\""
            + " text-anchor=\"middle\">%s</text>%n", x + barWidth / 2, baseY - h - 4,
            format(v)));
      }
      svg.append(String.format("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
          LEFT + c * groupWidth + groupWidth / 2, baseY + 18, escape(categories.get(c))));
    }
    for (int s = 0; s < series.size(); s++) {
      int x = LEFT + 10 + (s % perRow) * legendWidth;
      int y = HEIGHT - 24 - 16 * (rows - 1 - s / perRow);
      svg.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\""
          + " fill=\"%s\"/>%n", x, y, COLOURS[s % COLOURS.length]));
      svg.append(String.format("<text x=\"%d\" y=\"%d\">%s</text>%n", x + 16, y + 10,
          escape(series.get(s))));
    }
    svg.append("</svg>\n");
    Files.writeString(file, svg.toString(), StandardCharsets.UTF_8);
  }

  private static String format(double v) {
    return v >= 100 ? String.format("%.0f", v) : String.format("%.2f", v);
  }

  /** @return {@code text} safe inside SVG text and attributes */
  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
