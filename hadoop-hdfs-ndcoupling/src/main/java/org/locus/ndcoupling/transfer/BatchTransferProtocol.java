package org.locus.ndcoupling.transfer;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The wire format of the batch block transfer (seed 004 §4.3 step 3, "batch transfer method"):
 * every field is big-endian as {@link DataOutputStream} writes it, strings are
 * {@link DataOutputStream#writeUTF modified UTF-8} with a 2-byte length.
 *
 * <p>Every connection opens with a hello from the side that connected, and the serving side
 * answers it:
 * <pre>
 *   hello:   int magic 0x4C425446 ("LBTF")   byte version (1)   byte verb (1 PUSH, 2 RECEIVE)
 *   answer:  byte 0 accepted | 1 refused      UTF why refused ("" when accepted)
 * </pre>
 *
 * <p><b>PUSH</b>, from a coordinator to the source DataNode's service, right after the hello:
 * <pre>
 *   UTF blockPoolId   UTF targetHost   int targetPort   int count
 *   count x { long blockId  long generationStamp  long numBytes  UTF delHint }
 * </pre>
 * The source answers with one outcome per block, in the order the blocks finish, then totals:
 * <pre>
 *   'O' long blockId  byte status (0 transferred, 1 already present, 2 failed)  long bytes
 *       UTF reason
 *   'T' int connectionsOpened  long bytesSent
 * </pre>
 *
 * <p><b>RECEIVE</b>, from the source's service to the target's, one connection carrying many
 * blocks; after the hello the source sends {@code UTF blockPoolId  UTF sourceDataNode} (its
 * host:port, for the target's messages), then per block:
 * <pre>
 *   source: 'B' long blockId  long generationStamp  long numBytes  UTF delHint
 *           UTF storageType   7 bytes: the replica's meta file header (short version,
 *                             byte checksum type, int bytesPerChecksum)
 *   target: byte 0 send | 1 have it (finalized, same generation stamp) | 2 refused, UTF reason
 *   if send:
 *     source: data packets { int length (1..PACKET_MAX)  length bytes } ... int 0
 *             (or int -1  UTF reason: the source could not read its replica)
 *             then int sumsLength  sumsLength bytes: the meta file after its header, the CRC of
 *             every chunk as computed when the block was first written
 *     target: byte 0 written | 2 failed, UTF reason
 * </pre>
 * and ends the batch with {@code 'E'}. The target answers each header before any data flows,
 * so a block it already holds or cannot take costs one round trip, not its bytes; and each
 * block ends with the target's verdict, so the source knows which blocks are on the target
 * when the connection breaks.
 */
public final class BatchTransferProtocol {
  /** "LBTF": Locus batch transfer. */
  public static final int MAGIC = 0x4C425446;
  public static final byte VERSION = 1;

  public static final byte VERB_PUSH = 1;
  public static final byte VERB_RECEIVE = 2;

  static final byte ACCEPTED = 0;
  static final byte REFUSED = 1;

  static final byte OUTCOME = 'O';
  static final byte TOTALS = 'T';
  static final byte BLOCK = 'B';
  static final byte END = 'E';

  /** The target's answer to a block header. */
  static final byte SEND = 0;
  static final byte HAVE = 1;
  static final byte REFUSE = 2;

  /** The target's verdict after a block's data and checksums. */
  static final byte WRITTEN = 0;
  static final byte FAILED = 2;

  /** Data packet length that marks the end of a block's data. */
  static final int END_OF_DATA = 0;
  /** Data packet length that marks the source abandoning a block. */
  static final int ABORT = -1;
  /** Largest data packet; a multiple of every usual bytes-per-checksum. */
  static final int PACKET_MAX = 64 * 1024;

  /** Longest reason sent; {@code writeUTF} refuses strings over 64 KiB of UTF-8. */
  private static final int REASON_MAX_CHARS = 4000;

  private BatchTransferProtocol() {
  }

  static void writeHello(DataOutputStream out, byte verb) throws IOException {
    out.writeInt(MAGIC);
    out.writeByte(VERSION);
    out.writeByte(verb);
  }

  /**
   * Reads a hello.
   *
   * @return the verb
   * @throws ProtocolException naming what was expected when the peer does not speak this
   *     protocol or this version
   */
  static byte readHello(DataInputStream in) throws IOException {
    int magic = in.readInt();
    if (magic != MAGIC) {
      throw new ProtocolException(String.format("not a batch transfer hello: magic 0x%08X, "
          + "expected 0x%08X", magic, MAGIC));
    }
    byte version = in.readByte();
    if (version != VERSION) {
      throw new ProtocolException("batch transfer protocol version " + version
          + " is not supported; this DataNode speaks version " + VERSION);
    }
    byte verb = in.readByte();
    if (verb != VERB_PUSH && verb != VERB_RECEIVE) {
      throw new ProtocolException("unknown batch transfer verb " + verb);
    }
    return verb;
  }

  static void writeAnswer(DataOutputStream out, String refusal) throws IOException {
    out.writeByte(refusal == null ? ACCEPTED : REFUSED);
    writeReason(out, refusal == null ? "" : refusal);
    out.flush();
  }

  /**
   * Reads the answer to a hello.
   *
   * @throws ProtocolException with the peer's reason when it refused
   */
  static void readAnswer(DataInputStream in, String peer) throws IOException {
    byte status = in.readByte();
    String reason = in.readUTF();
    if (status != ACCEPTED) {
      throw new ProtocolException("batch transfer service " + peer + " refused: " + reason);
    }
  }

  static void writeReason(DataOutputStream out, String reason) throws IOException {
    String text = reason == null ? "" : reason;
    out.writeUTF(text.length() > REASON_MAX_CHARS ? text.substring(0, REASON_MAX_CHARS) : text);
  }

  static void expect(byte expected, byte got, String where) throws ProtocolException {
    if (expected != got) {
      throw new ProtocolException(where + ": expected frame '" + (char) expected + "', got "
          + got);
    }
  }

  /** The peer broke the protocol; the connection cannot go on. */
  public static final class ProtocolException extends IOException {
    ProtocolException(String message) {
      super(message);
    }
  }
}
