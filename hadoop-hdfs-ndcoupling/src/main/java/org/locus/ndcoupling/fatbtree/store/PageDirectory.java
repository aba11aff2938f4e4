package org.locus.ndcoupling.fatbtree.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.locus.ndcoupling.fatbtree.Page;

/**
 * One node's page copies, in memory and in its own directory: the durable {@link PageStore}.
 * The in-memory map is what readers see; every change is written through to disk before it is
 * published in the map, so a page a reader has seen survives a restart.
 *
 * <p>Directory layout:
 * <pre>
 *   page-&lt;id in hex&gt;.fbt   one page ({@link PageCodec}), replaced atomically
 *   node.fbt                 the node's root pointer and id reservation ({@link NodeFile})
 *   *.tmp                    a write in progress; deleted on open
 * </pre>
 * A write goes to a temporary file, is fsynced, renamed over the page file and the directory is
 * fsynced, so a crash leaves either the old or the new page, never a torn one. The node file
 * is written the same way.
 *
 * <p>Callers serialise writes of one page id (the page's latch); the store itself only makes
 * each write atomic.
 */
public final class PageDirectory implements PageStore {

  private static final String PREFIX = "page-";
  private static final String SUFFIX = ".fbt";
  private static final String NODE_FILE = "node.fbt";

  private final Path dir;
  private final boolean sync;
  private final Map<Long, Page> pages = new ConcurrentHashMap<>();
  private volatile NodeFile node;

  private PageDirectory(Path dir, boolean sync) {
    this.dir = dir;
    this.sync = sync;
  }

  /**
   * Opens (creating if needed) the store in {@code dir} and reads every page file.
   *
   * @param sync whether writes are fsynced; false only where a test wants speed over durability
   * @throws CorruptPageException naming the first page file that fails its checksum
   */
  public static PageDirectory open(Path dir, boolean sync) throws IOException {
    Files.createDirectories(dir);
    PageDirectory store = new PageDirectory(dir, sync);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (name.endsWith(".tmp")) {
          Files.delete(f);
        } else if (name.startsWith(PREFIX) && name.endsWith(SUFFIX)) {
          Page page = PageCodec.decode(Files.readAllBytes(f), f);
          if (!fileName(page.id()).equals(name)) {
            throw new CorruptPageException(f, "holds page " + page.id());
          }
          store.pages.put(page.id(), page);
        }
      }
    }
    Path nodeFile = dir.resolve(NODE_FILE);
    if (Files.exists(nodeFile)) {
      store.node = NodeFile.decode(Files.readAllBytes(nodeFile), nodeFile);
    }
    return store;
  }

  @Override
  public String describe() {
    return dir.toString();
  }

  @Override
  public NodeFile nodeFile() {
    return node;
  }

  @Override
  public void putNodeFile(NodeFile file) {
    writeAtomically(dir.resolve(NODE_FILE), file.encode());
    node = file;
  }

  /** The file page {@code id} is kept in. */
  public Path fileOf(long id) {
    return dir.resolve(fileName(id));
  }

  /** The local copy of a page, or null. */
  @Override
  public Page get(long id) {
    return pages.get(id);
  }

  /** Every page copy held here. */
  @Override
  public Collection<Page> all() {
    return List.copyOf(pages.values());
  }

  @Override
  public int size() {
    return pages.size();
  }

  /** Writes a page copy durably, then publishes it to readers. */
  @Override
  public void put(Page page) {
    Path target = fileOf(page.id());
    writeAtomically(target, PageCodec.encode(page));
    pages.put(page.id(), page);
  }

  /** Withdraws a copy from readers, then deletes its file. */
  @Override
  public void remove(long id) {
    pages.remove(id);
    try {
      Files.deleteIfExists(fileOf(id));
      syncDirectory();
    } catch (IOException e) {
      throw new UncheckedIOException("deleting page file " + fileOf(id), e);
    }
  }

  /** Temp file, fsync, rename, fsync the directory. */
  private void writeAtomically(Path target, byte[] data) {
    Path tmp = target.resolveSibling(target.getFileName() + "." + Thread.currentThread().getId()
        + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
          StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer buf = ByteBuffer.wrap(data);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        if (sync) {
          ch.force(true);
        }
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      syncDirectory();
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + target, e);
    }
  }

  private void syncDirectory() throws IOException {
    if (!sync) {
      return;
    }
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  private static String fileName(long id) {
    return PREFIX + Long.toHexString(id) + SUFFIX;
  }
}
