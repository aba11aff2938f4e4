package org.locus.zone.yarn.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ProfileRecorder} with a usage series given by the test and its own clock. */
class ProfileRecorderTest {

  @TempDir
  Path dir;
  private long used;
  private ProfileRecorder recorder;
  private final ApplicationId app = ApplicationId.newInstance(9, 1);

  @BeforeEach
  void setUp() {
    recorder = new ProfileRecorder(new JobProfiles(dir), () -> used, 10_000);
  }

  @Test
  void theSeriesIsWrittenOnceTheSettleTimeAfterTheStopIsOver() throws IOException {
    used = 1000;
    recorder.start(app, "sort big/x", 0);
    used = 9000;
    assertEquals(List.of(), recorder.tick(5_000));
    recorder.stop(app, 6_000);
    used = 1100;
    assertEquals(List.of(), recorder.tick(15_000), "written before the settle time");
    List<Path> written = recorder.tick(16_000);
    assertEquals(List.of(dir.resolve("sort_big_x.profile")), written);
    List<String> lines = Files.readAllLines(written.get(0));
    assertTrue(lines.get(0).startsWith("#"), lines.get(0));
    assertEquals(List.of("0.000 1000", "5.000 9000", "15.000 1100", "16.000 1100"),
        lines.subList(1, lines.size()));
    assertEquals(0, recorder.open());
  }

  @Test
  void anApplicationWithoutANameIsNotRecorded() throws IOException {
    recorder.start(app, null, 0);
    recorder.stop(app, 1);
    assertEquals(List.of(), recorder.tick(20_000));
    assertEquals(0, recorder.open());
  }
}
