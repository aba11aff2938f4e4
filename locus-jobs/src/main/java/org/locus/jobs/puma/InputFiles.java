package org.locus.jobs.puma;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/** Small helpers on job input files shared by the PUMA jobs. */
public final class InputFiles {
  private InputFiles() {
  }

  /**
   * @return the data files of {@code path} (itself if a file), sorted by name, without hidden
   *     ({@code _} or {@code .} prefixed) files
   */
  public static List<FileStatus> dataFiles(FileSystem fs, Path path) throws IOException {
    FileStatus status = fs.getFileStatus(path);
    if (status.isFile()) {
      return List.of(status);
    }
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus child : fs.listStatus(path)) {
      String name = child.getPath().getName();
      if (child.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
        files.add(child);
      }
    }
    files.sort(Comparator.comparing(f -> f.getPath().getName()));
    return files;
  }

  /** @return up to {@code count} first lines of the data files of {@code path}, in name order */
  public static List<String> firstLines(FileSystem fs, Path path, int count) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FileStatus file : dataFiles(fs, path)) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          fs.open(file.getPath()), StandardCharsets.UTF_8))) {
        String line;
        while (lines.size() < count && (line = in.readLine()) != null) {
          if (!line.isBlank()) {
            lines.add(line);
          }
        }
      }
      if (lines.size() == count) {
        break;
      }
    }
    return lines;
  }

  /** @return the base name of the file a map task reads */
  public static String fileName(Mapper<?, ?, ?, ?>.Context context) {
    return ((FileSplit) context.getInputSplit()).getPath().getName();
  }

  /** Splits a text line into whitespace-separated tokens (no empty tokens). */
  public static String[] tokens(String line) {
    String trimmed = line.strip();
    return trimmed.isEmpty() ? new String[0] : trimmed.split("\\s+");
  }

  /** @return {@code values} joined by commas after sorting */
  static String sortedJoin(List<String> values) {
    String[] sorted = values.toArray(new String[0]);
    Arrays.sort(sorted);
    return String.join(",", sorted);
  }
}
