package org.locus.bench.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.locus.jobs.swim.SwimScaling;
import org.locus.jobs.swim.SwimTrace;
import org.locus.jobs.swim.SwimTraceJob;

/**
 * Where a replay's trace comes from: a SWIM trace file, or one of the two first-hour samples
 * bundled with Locus ({@code fb2009}: the first hour of SWIM's Facebook 2009 sample, 78 jobs;
 * {@code fb2010}: of the 2010 sample, 977 jobs; New BSD licence, {@code LICENSE.SWIM} beside
 * them in this jar).
 *
 * @param name the bundled name or the file name, for reports
 * @param jobs every row
 * @param originalNodes nodes of the traced cluster, for the scaling rule
 */
public record SwimTraces(String name, List<SwimTraceJob> jobs, int originalNodes) {
  /** The bundled samples' names. */
  public static final List<String> BUNDLED = List.of("fb2009", "fb2010");

  /**
   * @param spec {@code fb2009}, {@code fb2010} or a trace file
   * @param fileNodes nodes of the traced cluster when {@code spec} is a file
   * @throws IOException naming the file when it is missing or holds a bad row
   */
  public static SwimTraces load(String spec, int fileNodes) throws IOException {
    if (BUNDLED.contains(spec)) {
      String resource = spec + "-first-hour.tsv";
      try (InputStream in = SwimTraces.class.getResourceAsStream("/org/locus/bench/swim/"
          + resource)) {
        if (in == null) {
          throw new IOException("bundled trace " + resource + " is missing from the jar");
        }
        BufferedReader reader = new BufferedReader(new InputStreamReader(in,
            StandardCharsets.UTF_8));
        return new SwimTraces(spec, SwimTrace.parse(reader, resource),
            spec.equals("fb2009") ? SwimScaling.FB2009_NODES : SwimScaling.FB2010_NODES);
      }
    }
    Path file = Path.of(spec);
    if (!Files.isRegularFile(file)) {
      throw new IOException("trace " + spec + " is neither a file nor one of the bundled"
          + " samples (" + String.join(", ", BUNDLED) + ")");
    }
    return new SwimTraces(file.getFileName().toString(), SwimTrace.read(file), fileNodes);
  }
}
