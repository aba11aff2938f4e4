package org.locus.ndcoupling.fatbtree.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.locus.ndcoupling.fatbtree.ChildPointer;
import org.locus.ndcoupling.fatbtree.IndexPage;
import org.locus.ndcoupling.fatbtree.LeafPage;
import org.locus.ndcoupling.fatbtree.NodeSet;
import org.locus.ndcoupling.fatbtree.Page;
import org.locus.ndcoupling.fatbtree.PathKey;
import org.locus.ndcoupling.fatbtree.SideLink;

/**
 * The on-disk form of a page. All integers big-endian (Java's DataOutput):
 *
 * <pre>
 *   magic        4 bytes  "FBTP"
 *   format       1 byte   1
 *   kind         1 byte   0 = leaf, 1 = index
 *   page id      8
 *   level        4
 *   low key      key      (a key is: 1 byte present flag, then int length + UTF-8 bytes)
 *   high key     key
 *   copies       int n, then n ints (node ids, ascending)
 *   right link   1 byte present flag, then long page id and a node list as for copies
 *   leaf:        int n, then n times (key, int owner)
 *   index:       int n, then n times (key, long child id, node list)
 *   checksum     4 bytes  CRC32C of every byte before it
 * </pre>
 *
 * <p>A file that is too short, has the wrong magic, or fails the checksum is refused with a
 * {@link CorruptPageException} naming it.
 */
public final class PageCodec {

  private static final int MAGIC = 0x46425450;
  private static final byte FORMAT = 1;
  private static final byte LEAF = 0;
  private static final byte INDEX = 1;

  private PageCodec() {
  }

  public static byte[] encode(Page page) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(MAGIC);
      out.writeByte(FORMAT);
      out.writeByte(page instanceof LeafPage ? LEAF : INDEX);
      out.writeLong(page.id());
      out.writeInt(page.level());
      writeKey(out, page.lowKey());
      writeKey(out, page.highKey());
      writeNodes(out, page.copies());
      SideLink link = page.rightLink();
      out.writeBoolean(link != null);
      if (link != null) {
        out.writeLong(link.pageId());
        writeNodes(out, link.nodes());
      }
      if (page instanceof LeafPage) {
        LeafPage leaf = (LeafPage) page;
        out.writeInt(leaf.size());
        for (int i = 0; i < leaf.size(); i++) {
          writeKey(out, leaf.keyAt(i));
          out.writeInt(leaf.ownerAt(i));
        }
      } else {
        List<ChildPointer> children = ((IndexPage) page).children();
        out.writeInt(children.size());
        for (ChildPointer c : children) {
          writeKey(out, c.lowKey());
          out.writeLong(c.pageId());
          writeNodes(out, c.nodes());
        }
      }
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeInt((int) crc.getValue());
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("encoding page " + page.id() + " in memory", e);
    }
  }

  /** Decodes a page file's bytes; {@code file} is only named in errors. */
  public static Page decode(byte[] data, Path file) throws CorruptPageException {
    if (data.length < 4 + 1 + 1 + 8 + 4 + 4) {
      throw new CorruptPageException(file, "only " + data.length + " bytes");
    }
    CRC32C crc = new CRC32C();
    crc.update(data, 0, data.length - 4);
    int stored = ((data[data.length - 4] & 0xff) << 24) | ((data[data.length - 3] & 0xff) << 16)
        | ((data[data.length - 2] & 0xff) << 8) | (data[data.length - 1] & 0xff);
    if (stored != (int) crc.getValue()) {
      throw new CorruptPageException(file, String.format(
          "checksum mismatch (stored %08x, computed %08x)", stored, (int) crc.getValue()));
    }
    try {
      DataInputStream in = new DataInputStream(
          new ByteArrayInputStream(data, 0, data.length - 4));
      if (in.readInt() != MAGIC) {
        throw new CorruptPageException(file, "not a Fat-Btree page (bad magic)");
      }
      byte format = in.readByte();
      if (format != FORMAT) {
        throw new CorruptPageException(file, "unknown page format " + format);
      }
      byte kind = in.readByte();
      long id = in.readLong();
      int level = in.readInt();
      PathKey low = readKey(in);
      PathKey high = readKey(in);
      NodeSet copies = readNodes(in);
      SideLink link = in.readBoolean() ? new SideLink(in.readLong(), readNodes(in)) : null;
      int n = in.readInt();
      if (kind == LEAF) {
        PathKey[] keys = new PathKey[n];
        int[] owners = new int[n];
        for (int i = 0; i < n; i++) {
          keys[i] = readKey(in);
          owners[i] = in.readInt();
        }
        return new LeafPage(id, low, high, copies.first(), link, keys, owners);
      }
      if (kind != INDEX) {
        throw new CorruptPageException(file, "unknown page kind " + kind);
      }
      List<ChildPointer> children = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        children.add(new ChildPointer(readKey(in), in.readLong(), readNodes(in)));
      }
      return new IndexPage(id, level, low, high, copies, link, children);
    } catch (IOException | RuntimeException e) {
      throw new CorruptPageException(file, "unreadable despite a good checksum: " + e);
    }
  }

  private static void writeKey(DataOutputStream out, PathKey key) throws IOException {
    out.writeBoolean(key != null);
    if (key != null) {
      byte[] b = key.path().getBytes(StandardCharsets.UTF_8);
      out.writeInt(b.length);
      out.write(b);
    }
  }

  private static PathKey readKey(DataInputStream in) throws IOException {
    if (!in.readBoolean()) {
      return null;
    }
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return PathKey.fromStored(new String(b, StandardCharsets.UTF_8));
  }

  private static void writeNodes(DataOutputStream out, NodeSet nodes) throws IOException {
    int[] ids = nodes.toArray();
    out.writeInt(ids.length);
    for (int id : ids) {
      out.writeInt(id);
    }
  }

  private static NodeSet readNodes(DataInputStream in) throws IOException {
    int[] ids = new int[in.readInt()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = in.readInt();
    }
    return NodeSet.of(ids);
  }
}
