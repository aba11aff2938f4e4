package org.locus.bench.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartBarrierTest {
  @TempDir
  Path tmp;

  @Test
  void arrivalsLeftByAnEarlierBenchAreClearedAndDoNotReleaseThePhase() throws Exception {
    File dir = tmp.resolve("r0-single").toFile();
    Files.createDirectories(dir.toPath());
    for (String stale : new String[] {"write.node1", "write.node2", "read.node1", "read.node2"}) {
      Files.writeString(new File(dir, stale).toPath(), "");
    }
    StartBarrier.reset(dir);
    assertEquals(0, dir.list().length, "reset leaves an empty directory");

    StartBarrier barrier = new StartBarrier(dir, 2, 300);
    IOException alone = assertThrows(IOException.class, () -> barrier.await("read", 2));
    assertTrue(alone.getMessage().contains("1 of 2 clients"), alone.getMessage());
  }

  @Test
  void everyNodeLeavesOnlyOnceAllHaveArrived() throws Exception {
    File dir = StartBarrier.reset(tmp.resolve("r1-sdp").toFile());
    StartBarrier barrier = new StartBarrier(dir, 3, TimeUnit.MINUTES.toMillis(1));
    CompletableFuture<Void> first = CompletableFuture.runAsync(() -> await(barrier, 1));
    CompletableFuture<Void> second = CompletableFuture.runAsync(() -> await(barrier, 2));
    Thread.sleep(200);
    assertFalse(first.isDone() || second.isDone(), "two of three must still wait");
    await(barrier, 3);
    first.get(30, TimeUnit.SECONDS);
    second.get(30, TimeUnit.SECONDS);
  }

  @Test
  void resetCreatesAMissingDirectory() throws Exception {
    File dir = tmp.resolve("bench-sync/r2-fatbtree").toFile();
    assertTrue(StartBarrier.reset(dir).isDirectory());
  }

  private static void await(StartBarrier barrier, int node) {
    try {
      barrier.await("write", node);
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
