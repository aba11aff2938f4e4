package org.locus.ndcoupling.fatbtree.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.locus.ndcoupling.fatbtree.RootRef;

/**
 * A node's own state beside its pages, in {@code node.fbt}:
 *
 * <pre>
 *   magic            4 bytes "FBTN"
 *   format           1 byte  1
 *   node id          4
 *   root page id     8
 *   root level       4
 *   ids reserved to  8       page ids below this (in this node's id space) may be in use
 *   checksum         4       CRC32C of every byte before it
 * </pre>
 *
 * Kept by the {@link PageStore}; a {@link PageDirectory} writes it atomically like a page. The
 * id reservation lets a restarted node allocate page ids that no earlier incarnation handed
 * out, even for pages that have since moved to other nodes.
 */
public record NodeFile(int nodeId, RootRef root, long idsReservedTo) {

  private static final int MAGIC = 0x4642544e;
  private static final int LENGTH = 4 + 1 + 4 + 8 + 4 + 8 + 4;

  /** Parses a node file's bytes; {@code file} is only named in errors. */
  public static NodeFile decode(byte[] data, Path file) throws CorruptPageException {
    if (data.length != LENGTH) {
      throw new CorruptPageException(file, data.length + " bytes, expected " + LENGTH);
    }
    ByteBuffer buf = ByteBuffer.wrap(data);
    CRC32C crc = new CRC32C();
    crc.update(data, 0, LENGTH - 4);
    if (buf.getInt(LENGTH - 4) != (int) crc.getValue()) {
      throw new CorruptPageException(file, "checksum mismatch");
    }
    if (buf.getInt() != MAGIC || buf.get() != 1) {
      throw new CorruptPageException(file, "not a Fat-Btree node file of format 1");
    }
    int node = buf.getInt();
    RootRef root = new RootRef(buf.getLong(), buf.getInt());
    return new NodeFile(node, root, buf.getLong());
  }

  /** The node file's bytes, as {@code node.fbt} holds them (also its form on the wire). */
  public byte[] encode() {
    ByteBuffer buf = ByteBuffer.allocate(LENGTH);
    buf.putInt(MAGIC).put((byte) 1).putInt(nodeId).putLong(root.pageId()).putInt(root.level())
        .putLong(idsReservedTo);
    CRC32C crc = new CRC32C();
    crc.update(buf.array(), 0, LENGTH - 4);
    buf.putInt((int) crc.getValue());
    return buf.array();
  }
}
