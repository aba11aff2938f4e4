package org.locus.ndcoupling.gear;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The current gear, kept in one small file beside the update log so a restarted NameNode keeps
 * placing for the gear the cluster is in. Written to a temporary file and renamed into place.
 */
public final class GearLevelFile {
  private final Path file;

  public GearLevelFile(Path file) {
    this.file = file;
  }

  /** @return the stored gear, or {@code top} when none was stored yet (every node on) */
  public int read(int top) throws IOException {
    if (!Files.exists(file)) {
      return top;
    }
    String text = Files.readString(file, StandardCharsets.UTF_8).trim();
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IOException("Gear file " + file + " holds '" + text + "', not a gear number;"
          + " write the gear the cluster is in (0 = lowest) or remove it for the top gear", e);
    }
  }

  /** Stores the gear durably. */
  public void write(int level) throws IOException {
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temporary, level + "\n", StandardCharsets.UTF_8);
    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }
}
