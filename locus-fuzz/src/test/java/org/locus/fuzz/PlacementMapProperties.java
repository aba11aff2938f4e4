package org.locus.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.locus.kat.placement.KeyOwnership;
import org.locus.kat.placement.OwnerPaths;
import org.locus.kat.placement.PlacementMap;

/**
 * KAT placement maps (a dataset's {@code _kat/placement} file, docs/kat.md), mutated, through
 * {@link PlacementMap#read}, which the NameNode's placement rule and the MapReduce side read
 * them with: a map is either read into an ownership that names one of its hosts for every
 * bucket, or refused with an {@link IOException} naming the file; never an exception from deep
 * inside the placement code.
 */
class PlacementMapProperties {
  private static File dir;
  private static FileSystem fs;

  @BeforeContainer
  static void localFileSystem() throws IOException {
    dir = Files.createTempDirectory("kat-fuzz").toFile();
    // the raw local file system: no .crc side files, a write and a read per try
    fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();
  }

  @AfterContainer
  static void removeIt() throws IOException {
    fs.delete(new Path(dir.toURI()), true);
  }

  @Property
  void aMutatedPlacementMapIsReadWhollyOrRefusedNamingTheFile(@ForAll("maps") String text)
      throws IOException {
    Path dataset = new Path(new Path(dir.toURI()), "dataset");
    Path file = OwnerPaths.placementFile(dataset);
    try (OutputStream out = fs.create(file, true)) {
      out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    }
    PlacementMap map;
    try {
      map = PlacementMap.read(fs, dataset);
    } catch (IOException e) {
      String m = e.getMessage();
      if (m == null || !m.contains(file.getName())) {
        fail("refusal without the file's name: " + e, e);
      }
      return;
    }
    KeyOwnership ownership = map.ownership();
    for (int bucket = 0; bucket < Math.min(map.buckets(), 4096); bucket++) {
      assertTrue(map.hosts().contains(ownership.ownerOfBucket(bucket)),
          "bucket " + bucket + " of " + map);
    }
  }

  @Provide
  Arbitrary<String> maps() {
    Arbitrary<String> version = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(8, Arbitraries.of("1", "2")),
        net.jqwik.api.Tuple.of(1, HostileValues.any()));
    Arbitrary<String> buckets = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(1, 64).map(String::valueOf)),
        net.jqwik.api.Tuple.of(4, HostileValues.numbers()));
    Arbitrary<String> host = Arbitraries.of("h1", "h2", "h3", "", " ", "h1 ", "=", "\\u00zz");
    Arbitrary<String> hosts = host.list().ofMaxSize(4).map(l -> String.join(",", l));
    Arbitrary<String> owners = Arbitraries.oneOf(
        Arbitraries.integers().between(-2, 5).list().ofMaxSize(70)
            .map(l -> String.join(",", l.stream().map(String::valueOf).toList())),
        HostileValues.any());
    Arbitrary<String> mapText = Combinators.combine(version, HostileValues.text(), buckets,
        hosts, owners, Arbitraries.integers().between(0, 31)).as(
            (v, hint, b, h, o, drop) -> line("version", v, drop & 1)
                + line("hint", hint, drop & 2) + line("buckets", b, drop & 4)
                + line("hosts", h, drop & 8) + line("owners", o, drop & 16));
    return Arbitraries.oneOf(mapText, HostileValues.text(),
        Arbitraries.strings().ofMaxLength(60).map(s -> "version=2\n" + s));
  }

  private static String line(String key, String value, int dropped) {
    return dropped != 0 ? "" : key + "=" + value + "\n";
  }
}
