package org.locus.ndcoupling.fatbtree.store;

import java.io.IOException;
import java.nio.file.Path;

/** A page or node file that fails its checksum or cannot be parsed; names the file. */
public final class CorruptPageException extends IOException {

  private static final long serialVersionUID = 1L;

  private final Path file;

  public CorruptPageException(Path file, String problem) {
    super("corrupt Fat-Btree file " + file + ": " + problem
        + "; the node cannot serve its pages until the file is restored from a copy on another"
        + " node or the node is re-formatted");
    this.file = file;
  }

  /** The file that was refused. */
  public Path file() {
    return file;
  }
}
