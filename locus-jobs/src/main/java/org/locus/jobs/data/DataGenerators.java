package org.locus.jobs.data;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.Path;

/** Every kind {@code locus generate KIND} can write, by name. */
public final class DataGenerators {
  private final Map<String, DataGenerator> kinds = new LinkedHashMap<>();

  public DataGenerators() {
    for (DataGenerator generator : List.of(new TextCorpusGenerator(), new RatingsGenerator(),
        new EdgeListGenerator(), new ItemsetGenerator(), new TeraRecordGenerator())) {
      kinds.put(generator.kind(), generator);
    }
  }

  public Collection<DataGenerator> all() {
    return kinds.values();
  }

  /**
   * @throws IllegalArgumentException naming the known kinds
   */
  public DataGenerator get(String kind) {
    DataGenerator generator = kinds.get(kind);
    if (generator == null) {
      throw new IllegalArgumentException("unknown data kind '" + kind + "'; one of: "
          + String.join(", ", new ArrayList<>(kinds.keySet())));
    }
    return generator;
  }

  static Path partFile(Path dir, int file) {
    return new Path(dir, String.format("part-%05d", file));
  }

  static void checkSize(long bytes, int files) {
    if (bytes < 1 || files < 1) {
      throw new IllegalArgumentException("need a size of at least 1 byte and at least one"
          + " file, got " + bytes + " bytes in " + files + " files");
    }
  }
}
