package org.locus.lowpower.datanode;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import com.sun.nio.file.ExtendedOpenOption;

/**
 * Writes a block file with {@code O_DIRECT} (seed 003 §3.3: direct I/O cut DataNode write CPU
 * on Atom), byte-identical to a plain sequential write. A DataNode gets it through
 * {@link DirectWriteDatasetFactory}; docs/lowpower.md has the design.
 *
 * <p>Layout: bytes are staged in an aligned direct buffer whose first byte sits at file offset
 * {@code bufferStart}, a multiple of the file system block size; only whole aligned blocks go
 * through the {@code O_DIRECT} channel. {@link #flush()} also writes the unaligned tail, padded
 * to a whole block, then truncates the file back to its logical length, so a reader (or a
 * crash) after a flush sees exactly the bytes written; the next write rewrites that block.
 *
 * <p>It is a {@link FileOutputStream} over a second, ordinary descriptor of the same file, so
 * code that forces a {@code FileOutputStream}'s channel (HDFS hsync) keeps working: fsync
 * applies to the file, whichever descriptor asks.
 */
public final class DirectBlockOutputStream extends FileOutputStream {
  static final int SAFE_ALIGNMENT = 4096;

  private final RandomAccessFile plain;
  private final FileChannel direct;
  private final int align;
  private final ByteBuffer buffer;
  private long bufferStart;
  private boolean closed;

  /**
   * Opens {@code file} for writing at {@code position} (its current length when appending,
   * 0 for a new block file).
   *
   * @param bufferBytes staging buffer size, rounded up to a multiple of the block size
   */
  public static DirectBlockOutputStream open(File file, long position, int bufferBytes)
      throws IOException {
    RandomAccessFile plain = new RandomAccessFile(file, "rw");
    try {
      return new DirectBlockOutputStream(plain, file, position, bufferBytes);
    } catch (IOException | RuntimeException e) {
      plain.close();
      throw e;
    }
  }

  private DirectBlockOutputStream(RandomAccessFile plain, File file, long position,
      int bufferBytes) throws IOException {
    super(plain.getFD());
    this.plain = plain;
    if (position > plain.length()) {
      throw new IOException("cannot write " + file + " at " + position + ": it holds only "
          + plain.length() + " bytes");
    }
    this.align = alignment(file.toPath());
    int capacity = Math.max(align, (bufferBytes + align - 1) / align * align);
    this.buffer = ByteBuffer.allocateDirect(capacity + align).alignedSlice(align);
    this.buffer.limit(capacity);
    this.direct = FileChannel.open(file.toPath(), StandardOpenOption.WRITE,
        ExtendedOpenOption.DIRECT);
    this.bufferStart = position - position % align;
    int head = (int) (position - bufferStart);
    if (head > 0) {
      // Appending inside a block: stage its existing head so the block is rewritten whole.
      byte[] existing = new byte[head];
      plain.seek(bufferStart);
      plain.readFully(existing);
      buffer.put(existing);
    }
  }

  /**
   * Writes and removes one aligned block in {@code dir} through an {@code O_DIRECT} channel.
   *
   * @throws IOException from the file system when it refuses O_DIRECT (tmpfs: EINVAL)
   */
  static void requireSupport(File dir) throws IOException {
    Path probe = Files.createTempFile(dir.toPath(), ".locus-direct-probe", "");
    try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.WRITE,
        ExtendedOpenOption.DIRECT)) {
      int align = alignment(probe);
      ByteBuffer block = ByteBuffer.allocateDirect(2 * align).alignedSlice(align);
      block.limit(align);
      channel.write(block, 0);
    } finally {
      Files.deleteIfExists(probe);
    }
  }

  /**
   * The unit O_DIRECT transfers must be aligned to: the file system's block size, or 4096 (a
   * multiple of every logical sector size, 512 or 4096) when the JDK cannot find the file's
   * mount: {@link Files#getFileStore} looks the path up in {@code /proc/self/mounts}, which in
   * a chroot whose root is not itself a mount point lists no entry for it.
   */
  static int alignment(Path path) {
    try {
      return (int) Math.max(SAFE_ALIGNMENT, Files.getFileStore(path).getBlockSize());
    } catch (IOException e) {
      return SAFE_ALIGNMENT;
    }
  }

  @Override
  public void write(int b) throws IOException {
    checkOpen();
    buffer.put((byte) b);
    if (!buffer.hasRemaining()) {
      writeFullBuffer();
    }
  }

  /** FileOutputStream writes whole arrays itself; route them through the staging buffer. */
  @Override
  public void write(byte[] b) throws IOException {
    write(b, 0, b.length);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    while (len > 0) {
      int n = Math.min(len, buffer.remaining());
      buffer.put(b, off, n);
      off += n;
      len -= n;
      if (!buffer.hasRemaining()) {
        writeFullBuffer();
      }
    }
  }

  /** Writes every staged byte to the file; the file's length is then exactly what was written. */
  @Override
  public void flush() throws IOException {
    checkOpen();
    int pending = buffer.position();
    if (pending == 0) {
      return;
    }
    int aligned = pending - pending % align;
    int padded = aligned == pending ? pending : aligned + align;
    ByteBuffer out = buffer.duplicate();
    out.position(0).limit(padded);
    writeFully(out, bufferStart);
    plain.setLength(bufferStart + pending);
    // Keep the unaligned tail staged at the start of the buffer, at its aligned offset.
    ByteBuffer tail = buffer.duplicate();
    tail.position(aligned).limit(pending);
    buffer.clear();
    buffer.limit(buffer.capacity());
    buffer.put(tail);
    bufferStart += aligned;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      flush();
    } finally {
      closed = true;
      try {
        if (direct != null) {
          // null when the O_DIRECT channel failed to open in the constructor and the
          // RandomAccessFile is being closed through its shared descriptor
          direct.close();
        }
      } finally {
        super.close();
        plain.close();
      }
    }
  }

  private void writeFullBuffer() throws IOException {
    ByteBuffer out = buffer.duplicate();
    out.flip();
    writeFully(out, bufferStart);
    bufferStart += out.limit();
    buffer.clear();
  }

  private void writeFully(ByteBuffer out, long position) throws IOException {
    long at = position;
    while (out.hasRemaining()) {
      at += direct.write(out, at);
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("direct block stream is closed");
    }
  }
}
