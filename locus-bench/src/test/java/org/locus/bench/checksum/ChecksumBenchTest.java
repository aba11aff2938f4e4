package org.locus.bench.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locus.bench.BenchException;
import org.locus.kit.LocusMiniCluster;

/**
 * The checksum bench's mechanism on a one-node embedded cluster: each file carries the chunk
 * it was written with, comes back byte for byte, and a file that differs is caught; then the
 * whole bench on a tiny sweep (its own cluster). Nothing here depends on speed. About 25 s.
 */
class ChecksumBenchTest {
  private static final int FILE_BYTES = (1 << 20) + 4321;
  @TempDir
  static File tmp;
  private static LocusMiniCluster cluster;
  private static FileSystem fs;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = LocusMiniCluster.builder(new File(tmp, "cluster")).nodes(1).start();
    fs = cluster.getFileSystem();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * The DataNode's block metadata file starts with a 7-byte header (2-byte version, 1-byte
   * checksum type, 4-byte chunk size) followed by one 4-byte CRC per chunk.
   */
  @ParameterizedTest
  @ValueSource(ints = {512, 4096, 16384})
  void eachFileCarriesTheChecksumChunkItWasWrittenWith(int bytesPerChecksum) throws Exception {
    ChecksumWorkload workload = new ChecksumWorkload(FILE_BYTES, 100, 7);
    Path path = new Path("/chunk-" + bytesPerChecksum);
    workload.write(fs, path, new ChecksumSetting(1, 100, 65536, bytesPerChecksum));

    ExtendedBlock block = DFSTestUtil.getFirstBlock(fs, path);
    File meta = cluster.getDfsCluster().getBlockMetadataFile(0, block);
    try (FileInputStream in = new FileInputStream(meta)) {
      assertEquals(bytesPerChecksum,
          BlockMetadataHeader.readHeader(in).getChecksum().getBytesPerChecksum());
    }
    long chunks = (FILE_BYTES + bytesPerChecksum - 1) / bytesPerChecksum;
    assertEquals(BlockMetadataHeader.getHeaderSize() + 4 * chunks, meta.length());
    assertEquals(bytesPerChecksum, ChecksumWorkload.checksumOf(fs, path).getBytesPerChecksum());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 65536})
  void aFileReadsBackAsWrittenInSmallCalls(int bufferBytes) throws Exception {
    ChecksumWorkload workload = new ChecksumWorkload(FILE_BYTES, 100, 7);
    ChecksumSetting setting = new ChecksumSetting(1, 100, bufferBytes, 1024);
    Path path = new Path("/content-" + bufferBytes);
    workload.write(fs, path, setting);

    CRC32 expected = new CRC32();
    try (OutputStream sink = new CheckedOutputStream(OutputStream.nullOutputStream(),
        expected)) {
      workload.writeTo(sink, 100);
    }
    CRC32 read = new CRC32();
    long length = 0;
    try (InputStream in = fs.open(path)) {
      byte[] buffer = new byte[8192];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        read.update(buffer, 0, n);
        length += n;
      }
    }
    assertEquals(FILE_BYTES, length);
    assertEquals(expected.getValue(), read.getValue());
    workload.readAndCompare(fs, path, setting);
  }

  @Test
  void aFileThatDiffersFromTheContentIsRefused() throws Exception {
    ChecksumSetting setting = new ChecksumSetting(1, 4096, 0, 512);
    Path path = new Path("/other-content");
    new ChecksumWorkload(FILE_BYTES, 4096, 8).write(fs, path, setting);
    BenchException e = assertThrows(BenchException.class,
        () -> new ChecksumWorkload(FILE_BYTES, 4096, 7).readAndCompare(fs, path, setting));
    assertTrue(e.getMessage().startsWith(path + " differs from what was written at byte "),
        e.getMessage());
  }

  @Test
  void benchReportsEveryConfigurationOfATinySweepWithItsChunkOnFile() throws Exception {
    File out = new File(tmp, "bench");
    ChecksumBenchRequest request = ChecksumBenchRequest.parse(Map.of(
        "bytes-per-checksum", "512,4096", "write-sizes", "100,65536", "buffer", "65536",
        "replication", "1", "mib", "1", "rounds", "1", "out", out.getPath()));
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    new ChecksumBench(request).run(new PrintStream(printed, true, StandardCharsets.UTF_8),
        new PrintStream(progress, true, StandardCharsets.UTF_8));

    String text = printed.toString(StandardCharsets.UTF_8);
    String table = Files.readString(new File(out, ChecksumBenchReport.TABLE).toPath());
    assertTrue(text.startsWith(table), text);
    List<List<String>> rows = table.lines().filter(l -> l.startsWith("  1 "))
        .map(l -> List.of(l.trim().split(" {2,}"))).toList();
    List<List<String>> expected = new ArrayList<>();
    for (List<String> write : List.of(List.of("100 B", "-"), List.of("100 B", "64.0 KiB"),
        List.of("64.0 KiB", "-"))) {
      for (String chunk : List.of("512", "4096")) {
        expected.add(List.of("1", write.get(0), write.get(1), chunk));
      }
    }
    assertEquals(expected, rows.stream().map(r -> r.subList(0, 4)).toList(), table);
    for (List<String> row : rows) {
      assertEquals(12, row.size(), table);
    }
    // a stock configuration is its own reference
    assertEquals(List.of("1.00", "1.00", "1.00", "1.00"), rows.get(0).subList(8, 12), table);

    JsonNode results = new ObjectMapper().readTree(new File(out, ChecksumBenchReport.RESULTS));
    assertEquals(ChecksumBenchReport.SCHEMA, results.path("schema").asText());
    assertEquals(6, results.path("configurations").size());
    for (JsonNode configuration : results.path("configurations")) {
      JsonNode sample = configuration.path("samples").path(0);
      assertEquals(configuration.path("bytesPerChecksum").asInt(),
          sample.path("fileBytesPerChecksum").asInt(), configuration.toString());
      assertTrue(sample.path("writeNanos").asLong() > 0, configuration.toString());
      assertTrue(sample.path("readNanos").asLong() > 0, configuration.toString());
    }
    assertTrue(Files.readString(new File(out, "checksum-r1.svg").toPath()).startsWith("<svg"));
    assertEquals(6, progress.toString(StandardCharsets.UTF_8).lines()
        .filter(l -> l.startsWith("[bench checksum] round 1/1, ")).count(),
        progress.toString(StandardCharsets.UTF_8));
  }
}
