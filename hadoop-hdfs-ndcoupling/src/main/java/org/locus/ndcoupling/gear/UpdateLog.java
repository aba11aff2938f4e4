package org.locus.ndcoupling.gear;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable update log of low-gear writes (seed 004 §4.3), one file on the NameNode's disk.
 *
 * <p>On-disk layout: a sequence of frames, each {@code int length, int crc32c(payload),
 * payload}, big-endian. A payload starts with a type byte: {@code 1} LOGGED ({@code long
 * sequence, long inodeId, UTF path, UTF standIn, UTF intended, long placedAtMillis}) or {@code 2}
 * RETIRED ({@code long sequence} of a LOGGED entry whose replica reached its intended node).
 * Every append is forced to the disk before it returns, so an entry the placement rule logged
 * survives a NameNode crash.
 *
 * <p>A crash in the middle of an append leaves a torn last frame (shorter than its length, or
 * whose checksum fails, with nothing valid after it): opening the log cuts it off and says so.
 * A bad frame with valid frames after it is not a torn append but damage, and opening refuses
 * with the file and offset. {@link #compact} rewrites the file with the pending entries only
 * (temporary file, force, atomic rename).
 *
 * <p>Thread-safe: appends come from the NameNode's block allocations in many handler threads.
 */
public final class UpdateLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UpdateLog.class);
  private static final byte LOGGED = 1;
  private static final byte RETIRED = 2;
  /** Larger frames cannot be ours: a path is at most a few KiB. */
  private static final int MAX_FRAME = 1 << 20;

  private final Path file;
  private final Map<Long, UpdateLogEntry> pending = new LinkedHashMap<>();
  private FileChannel channel;
  private long nextSequence = 1;

  private UpdateLog(Path file) {
    this.file = file;
  }

  /**
   * Opens the log at {@code file}, creating it if absent, and replays it.
   *
   * @throws IOException when the file is damaged before its last frame (naming file and offset)
   */
  public static UpdateLog open(Path file) throws IOException {
    UpdateLog log = new UpdateLog(file);
    Files.createDirectories(file.toAbsolutePath().getParent());
    log.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    long good = log.replay();
    if (good < log.channel.size()) {
      LOG.warn("Update log {}: cut a torn last record ({} bytes at offset {}), left by a crash"
          + " during an append", file, log.channel.size() - good, good);
      log.channel.truncate(good);
      log.channel.force(true);
    }
    log.channel.position(good);
    return log;
  }

  /**
   * Reads the pending entries of a log another process may be appending to, without changing the
   * file (a torn last record is skipped, not cut).
   */
  public static List<UpdateLogEntry> readPending(Path file) throws IOException {
    UpdateLog log = new UpdateLog(file);
    try (FileChannel read = FileChannel.open(file, StandardOpenOption.READ)) {
      log.channel = read;
      log.replay();
    }
    return List.copyOf(log.pending.values());
  }

  private long replay() throws IOException {
    long size = channel.size();
    long offset = 0;
    while (offset < size) {
      byte[] payload = readFrame(offset, size);
      if (payload == null) {
        if (validFrameAfter(offset, size)) {
          throw new IOException("Update log " + file + " is damaged at offset " + offset
              + " (a record fails its checksum and later records are intact); move the file"
              + " away to start an empty log, losing the pending entries it names");
        }
        return offset;
      }
      apply(payload);
      offset += 8 + payload.length;
    }
    return offset;
  }

  /** @return the frame's payload, or null when it is torn or fails its checksum */
  private byte[] readFrame(long offset, long size) throws IOException {
    if (size - offset < 8) {
      return null;
    }
    ByteBuffer head = ByteBuffer.allocate(8);
    channel.read(head, offset);
    head.flip();
    int length = head.getInt();
    int crc = head.getInt();
    if (length <= 0 || length > MAX_FRAME || size - offset - 8 < length) {
      return null;
    }
    ByteBuffer body = ByteBuffer.allocate(length);
    while (body.hasRemaining()) {
      if (channel.read(body, offset + 8 + body.position()) < 0) {
        return null;
      }
    }
    CRC32C check = new CRC32C();
    check.update(body.array());
    return (int) check.getValue() == crc ? body.array() : null;
  }

  /** @return whether any offset after a bad frame starts a valid one (damage, not a torn tail) */
  private boolean validFrameAfter(long bad, long size) throws IOException {
    for (long offset = bad + 1; offset + 8 < size; offset++) {
      if (readFrame(offset, size) != null) {
        return true;
      }
    }
    return false;
  }

  private void apply(byte[] payload) throws IOException {
    DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(payload));
    try {
      byte type = in.readByte();
      long sequence = in.readLong();
      if (type == LOGGED) {
        UpdateLogEntry entry = new UpdateLogEntry(sequence, in.readLong(), in.readUTF(),
            in.readUTF(), in.readUTF(), in.readLong());
        pending.put(sequence, entry);
      } else if (type == RETIRED) {
        pending.remove(sequence);
      } else {
        throw new IOException("Update log " + file + ": unknown record type " + type);
      }
      nextSequence = Math.max(nextSequence, sequence + 1);
    } catch (EOFException e) {
      throw new IOException("Update log " + file + ": a record is shorter than its type says",
          e);
    }
  }

  /**
   * Records that a replica of a block of the file went to {@code standIn} instead of
   * {@code intended}; durable when this returns.
   */
  public synchronized UpdateLogEntry append(long inodeId, String path, String standIn,
      String intended, long placedAtMillis) throws IOException {
    UpdateLogEntry entry = new UpdateLogEntry(nextSequence, inodeId, path, standIn, intended,
        placedAtMillis);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(LOGGED);
    out.writeLong(entry.sequence());
    out.writeLong(inodeId);
    out.writeUTF(path);
    out.writeUTF(standIn);
    out.writeUTF(intended);
    out.writeLong(placedAtMillis);
    writeFrame(bytes.toByteArray());
    nextSequence++;
    pending.put(entry.sequence(), entry);
    return entry;
  }

  /** Retires entries whose replicas reached their intended nodes; durable when this returns. */
  public synchronized void retire(Collection<UpdateLogEntry> entries) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (UpdateLogEntry entry : entries) {
      if (pending.remove(entry.sequence()) == null) {
        continue;
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(RETIRED);
      out.writeLong(entry.sequence());
      byte[] payload = bytes.toByteArray();
      DataOutputStream frame = new DataOutputStream(all);
      frame.writeInt(payload.length);
      frame.writeInt(crc(payload));
      frame.write(payload);
    }
    if (all.size() > 0) {
      write(all.toByteArray());
    }
  }

  private void writeFrame(byte[] payload) throws IOException {
    ByteBuffer frame = ByteBuffer.allocate(8 + payload.length);
    frame.putInt(payload.length).putInt(crc(payload)).put(payload).flip();
    write(frame.array());
  }

  private void write(byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    channel.force(false);
  }

  private static int crc(byte[] payload) {
    CRC32C check = new CRC32C();
    check.update(payload);
    return (int) check.getValue();
  }

  /** Rewrites the file with the pending entries only, atomically. */
  public synchronized void compact() throws IOException {
    Path temporary = file.resolveSibling(file.getFileName() + ".compacting");
    List<UpdateLogEntry> keep = new ArrayList<>(pending.values());
    try (UpdateLog fresh = new UpdateLog(temporary)) {
      Files.deleteIfExists(temporary);
      fresh.channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      for (UpdateLogEntry entry : keep) {
        fresh.nextSequence = entry.sequence();
        fresh.append(entry.inodeId(), entry.path(), entry.standIn(), entry.intended(),
            entry.placedAtMillis());
      }
    }
    channel.close();
    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(),
        StandardOpenOption.READ)) {
      dir.force(true);
    }
    channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    channel.position(channel.size());
  }

  /** @return the entries not yet retired, in the order they were logged */
  public synchronized List<UpdateLogEntry> pending() {
    return List.copyOf(pending.values());
  }

  /** @return how many entries are not yet retired */
  public synchronized int pendingCount() {
    return pending.size();
  }

  /** @return the log file's size in bytes */
  public synchronized long sizeBytes() throws IOException {
    return channel.size();
  }

  /** @return the log's file */
  public Path file() {
    return file;
  }

  @Override
  public synchronized void close() throws IOException {
    if (channel != null && channel.isOpen()) {
      channel.close();
    }
  }
}
