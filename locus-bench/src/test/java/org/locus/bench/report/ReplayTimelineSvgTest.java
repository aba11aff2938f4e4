package org.locus.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locus.bench.replay.ReplayedJob;
import org.locus.jobs.swim.ByteTargets;

/** The replay timeline: one bar per job, in submission order, as long as the job ran. */
class ReplayTimelineSvgTest {
  @TempDir
  File dir;

  private static ReplayedJob job(String name, long planned, long submitted, long finished,
      boolean succeeded, long shuffle) {
    return new ReplayedJob(name, planned / 1000, planned, submitted, finished, succeeded,
        new ByteTargets(1000, 1000, 1000, false), 1000, shuffle, 1000, null);
  }

  @Test
  void everyJobIsABarFromSubmissionToCompletionInSubmissionOrder() throws Exception {
    List<ReplayedJob> jobs = List.of(
        job("late", 4_000, 5_000, 20_000, true, 1000),
        job("first", 0, 10, 10_010, true, 5000),
        job("broken", 1_000, 1_000, 2_000, false, 0));
    File file = new File(dir, "timeline.svg");
    ReplayTimelineSvg.write(file.toPath(), "t", jobs);
    String svg = Files.readString(file.toPath());
    DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file); // well-formed XML
    Matcher bar = Pattern.compile("<rect class=\"job\" x=\"([0-9.]+)\" y=\"([0-9]+)\""
        + " width=\"([0-9.]+)\" height=\"[0-9]+\" fill=\"(#[0-9a-f]+)\"><title>([a-z]+):")
        .matcher(svg);
    List<String> names = new ArrayList<>();
    List<Double> widths = new ArrayList<>();
    List<String> colours = new ArrayList<>();
    int lastY = -1;
    while (bar.find()) {
      int y = Integer.parseInt(bar.group(2));
      assertTrue(y > lastY, "rows go down in submission order: " + svg);
      lastY = y;
      names.add(bar.group(5));
      widths.add(Double.parseDouble(bar.group(3)));
      colours.add(bar.group(4));
    }
    assertEquals(List.of("first", "broken", "late"), names);
    // 10 s, 1 s and 15 s on one axis of 20 s: widths in that proportion
    assertEquals(10.0, widths.get(0) / widths.get(1), 0.01);
    assertEquals(1.5, widths.get(2) / widths.get(0), 0.01);
    // off its shuffle target, failed, on target
    assertEquals(List.of("#f28e2b", "#e15759", "#59a14f"), colours);
    assertEquals(3, svg.split("class=\"planned\"", -1).length - 1);
  }

  @Test
  void ticksAreRoundAndFewEnoughToRead() {
    assertEquals(10.0, ReplayTimelineSvg.tickStep(60), 1e-9);
    assertEquals(0.5, ReplayTimelineSvg.tickStep(3), 1e-9);
    assertEquals(200.0, ReplayTimelineSvg.tickStep(1500), 1e-9);
  }
}
