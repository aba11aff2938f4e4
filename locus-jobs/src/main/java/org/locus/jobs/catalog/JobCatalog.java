package org.locus.jobs.catalog;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.locus.jobs.puma.AdjacencyList;
import org.locus.jobs.puma.Classification;
import org.locus.jobs.puma.HistogramMovies;
import org.locus.jobs.puma.HistogramRatings;
import org.locus.jobs.puma.InvertedIndex;
import org.locus.jobs.puma.KMeans;
import org.locus.jobs.puma.RankedInvertedIndex;
import org.locus.jobs.puma.SelfJoin;
import org.locus.jobs.puma.SequenceCount;
import org.locus.jobs.puma.TeraGen;
import org.locus.jobs.puma.TeraSort;
import org.locus.jobs.puma.TeraValidate;
import org.locus.jobs.puma.TermVector;
import org.locus.jobs.swim.SyntheticJob;

/**
 * Every job {@code locus job NAME} can run, by name: the PUMA suite (seed 001 §4.6, Tables
 * 4.6–4.7) written for Locus, terasort's three steps, and the SWIM synthetic job.
 */
public final class JobCatalog {
  private final Map<String, LocusJob> jobs = new LinkedHashMap<>();

  public JobCatalog() {
    for (LocusJob job : List.of(new WordCountJob(), new GrepJob(), new InvertedIndex(),
        new TermVector(), new SequenceCount(), new RankedInvertedIndex(), new SelfJoin(),
        new AdjacencyList(), new HistogramMovies(), new HistogramRatings(),
        new Classification(), new KMeans(), new TeraGen(), new TeraSort(), new TeraValidate(),
        new SyntheticJob())) {
      jobs.put(job.name(), job);
    }
  }

  public Collection<LocusJob> all() {
    return jobs.values();
  }

  /**
   * @return the job called {@code name}
   * @throws IllegalArgumentException naming the known jobs
   */
  public LocusJob get(String name) {
    LocusJob job = jobs.get(name);
    if (job == null) {
      throw new IllegalArgumentException("unknown job '" + name + "'; one of: "
          + String.join(", ", new ArrayList<>(jobs.keySet())));
    }
    return job;
  }
}
