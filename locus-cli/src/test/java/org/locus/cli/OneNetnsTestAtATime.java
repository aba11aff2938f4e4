package org.locus.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Holds a machine-wide lock ({@value #LOCK}) for as long as a test class (or a block of a
 * documented command) starts netns clusters.
 *
 * <p>Surefire runs test classes in two JVMs side by side. Two netns clusters can run together
 * in principle, but the subnet of a cluster follows from its directory's path and {@code up}
 * refuses a subnet another cluster routes, so whether two test clusters clash depends on where
 * the checkout lives; they would also share two cores between a dozen daemons each. Test
 * classes that start netns clusters therefore take turns, while every other class runs beside
 * them.
 */
public final class OneNetnsTestAtATime implements BeforeAllCallback, AfterAllCallback {
  public static final String LOCK = "/tmp/locus-netns-tests.lock";
  private static final ExtensionContext.Namespace STORE =
      ExtensionContext.Namespace.create(OneNetnsTestAtATime.class);

  /**
   * Where each turn is recorded when it ends, one line per turn in the module directory the
   * tests run in: {@code WHO waited SECONDS held SECONDS}. scripts/test adds them up: the turns
   * held one after another are the part of the suite two forks cannot share.
   */
  static final Path TURNS = Path.of("target", "netns-turns.txt");

  /** A held lock; closing it lets the next netns test go. */
  public static final class Turn implements AutoCloseable {
    private final FileChannel channel;
    private final String who;
    private final long waitedNanos;
    private final long heldSince = System.nanoTime();

    private Turn(FileChannel channel, String who, long waitedNanos) {
      this.channel = channel;
      this.who = who;
      this.waitedNanos = waitedNanos;
    }

    @Override
    public void close() throws IOException {
      long heldNanos = System.nanoTime() - heldSince;
      channel.close(); // releases the lock
      Files.createDirectories(TURNS.getParent());
      Files.writeString(TURNS, String.format("%s waited %.1f held %.1f%n", who,
          waitedNanos / 1e9, heldNanos / 1e9), StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    }
  }

  /** Waits for and takes the lock; reports on stderr when another JVM holds it. */
  public static Turn take(String who) throws IOException {
    FileChannel channel = FileChannel.open(Path.of(LOCK), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    long start = System.nanoTime();
    FileLock lock = channel.tryLock();
    if (lock == null) {
      System.err.println(who + ": waiting for " + LOCK + " (another netns test runs)");
      channel.lock();
      System.err.printf("%s: got %s after %d s%n", who, LOCK,
          (System.nanoTime() - start) / 1_000_000_000L);
    }
    return new Turn(channel, who, lock == null ? System.nanoTime() - start : 0);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    context.getStore(STORE).put(Turn.class,
        take(context.getRequiredTestClass().getSimpleName()));
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    Turn turn = context.getStore(STORE).remove(Turn.class, Turn.class);
    if (turn != null) {
      turn.close();
    }
  }
}
