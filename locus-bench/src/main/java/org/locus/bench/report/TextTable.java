package org.locus.bench.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** A plain text table with left-aligned columns sized to their widest cell. */
public final class TextTable {
  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  public TextTable(String... header) {
    this.columns = header.length;
    rows.add(header);
  }

  public TextTable row(Object... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException(cells.length + " cells for " + columns + " columns");
    }
    String[] text = new String[columns];
    for (int i = 0; i < columns; i++) {
      text[i] = String.valueOf(cells[i]);
    }
    rows.add(text);
    return this;
  }

  public void print(PrintStream out, String indent) {
    int[] width = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int i = 0; i < columns; i++) {
        line.append(row[i]);
        if (i < columns - 1) {
          line.append(" ".repeat(width[i] - row[i].length() + 2));
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }

  /** Formats a byte count with a binary unit, e.g. {@code 1.5 MiB}. */
  public static String bytes(long n) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = n;
    int unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit == 0 ? n + " B" : String.format("%.1f %s", value, units[unit]);
  }

  /** Formats milliseconds as seconds with one decimal, e.g. {@code 12.3 s}. */
  public static String seconds(long millis) {
    return String.format("%.1f s", millis / 1000.0);
  }
}
