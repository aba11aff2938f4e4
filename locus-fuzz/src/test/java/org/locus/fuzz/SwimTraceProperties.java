package org.locus.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.locus.jobs.swim.SwimTrace;
import org.locus.jobs.swim.SwimTraceJob;

/**
 * SWIM trace rows (../shared/data/swim/), mutated, through {@link SwimTrace#parse}, which the
 * replay bench and the SWIM suites read traces with: a trace is either read whole, every job
 * with non-negative times and byte counts, or refused with one line naming the file and line.
 */
class SwimTraceProperties {
  private static final String SOURCE = "fuzzed.tsv";

  @Property
  void aMutatedTraceIsReadWithSaneJobsOrRefusedNamingFileAndLine(
      @ForAll("traces") String trace) {
    List<SwimTraceJob> jobs;
    try {
      jobs = SwimTrace.parse(new BufferedReader(new StringReader(trace)), SOURCE);
    } catch (IOException e) {
      String m = e.getMessage();
      if (m == null || !m.startsWith(SOURCE + ":") || m.contains("\n")) {
        fail("refusal without one line naming " + SOURCE + ":LINE: " + e, e);
      }
      return;
    }
    for (SwimTraceJob job : jobs) {
      assertTrue(job.submitSeconds() >= 0 && job.gapSeconds() >= 0 && job.inputBytes() >= 0
          && job.shuffleBytes() >= 0 && job.outputBytes() >= 0, "accepted " + job);
    }
  }

  @Provide
  Arbitrary<String> traces() {
    return rows().list().ofMaxSize(6).map(rows -> String.join("\n", rows));
  }

  /** A row as the trace files hold it, with fields replaced, dropped, doubled or mangled. */
  private Arbitrary<String> rows() {
    Arbitrary<String> good = Arbitraries.longs().between(0, 1L << 40).map(String::valueOf);
    Arbitrary<String> field = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, good), net.jqwik.api.Tuple.of(3, HostileValues.numbers()),
        net.jqwik.api.Tuple.of(1, HostileValues.text()));
    Arbitrary<String> row = field.list().ofMinSize(0).ofMaxSize(8).map(fields ->
        "job" + fields.size() + (fields.isEmpty() ? "" : "\t" + String.join("\t", fields)));
    return Arbitraries.oneOf(row, row.map(r -> r.replace('\t', ' ')), row.map(r -> r + "\t"),
        row.map(r -> " " + r), HostileValues.text(), Arbitraries.just(""));
  }
}
