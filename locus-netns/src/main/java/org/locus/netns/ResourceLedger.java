package org.locus.netns;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Every host resource a netns cluster creates, one line each, appended and flushed to disk
 * <em>before</em> the resource is made: {@code KIND<TAB>NAME[<TAB>DETAIL]}. Whatever happens to
 * the process that builds or supervises the cluster (an error half way, {@code kill -9}),
 * {@link ClusterTeardown} can remove exactly what exists, in reverse order, and nothing else.
 *
 * <p>Kinds: {@code netns} (a network namespace), {@code link} (an interface in the root
 * namespace), {@code cgroup} (a cgroup directory, v1 or v2), {@code loop} (a loop device;
 * detail: its backing file, checked before detaching), {@code mount} (a mount point),
 * {@code file} (a disk image).
 */
public final class ResourceLedger {
  private final File file;

  public ResourceLedger(File file) {
    this.file = file;
  }

  public File file() {
    return file;
  }

  /** Records a resource about to be created. */
  public void record(String kind, String name, String detail) throws IOException {
    String line = kind + "\t" + name + (detail == null ? "" : "\t" + detail) + "\n";
    try (FileOutputStream out = new FileOutputStream(file, true)) {
      out.write(line.getBytes(StandardCharsets.UTF_8));
      out.getFD().sync();
    }
  }

  /** @return the recorded resources in creation order */
  public List<Entry> entries() throws IOException {
    List<Entry> entries = new ArrayList<>();
    if (!file.isFile()) {
      return entries;
    }
    for (String line : Files.readAllLines(file.toPath(), StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      String[] parts = line.split("\t", 3);
      if (parts.length < 2) {
        throw new IOException("malformed line in " + file + ": '" + line + "'");
      }
      entries.add(new Entry(parts[0], parts[1], parts.length == 3 ? parts[2] : null));
    }
    return entries;
  }

  /** @return whether the ledger records anything */
  public boolean isEmpty() throws IOException {
    return entries().isEmpty();
  }

  /** Forgets everything; called once teardown has removed it all. */
  public void clear() throws IOException {
    Files.deleteIfExists(file.toPath());
  }

  /** One recorded resource. */
  public record Entry(String kind, String name, String detail) {
  }
}
