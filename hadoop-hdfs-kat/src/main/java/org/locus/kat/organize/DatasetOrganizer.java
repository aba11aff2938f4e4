package org.locus.kat.organize;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSInotifyEventInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsAdmin;
import org.apache.hadoop.hdfs.inotify.Event;
import org.apache.hadoop.hdfs.inotify.EventBatch;
import org.apache.hadoop.hdfs.inotify.MissingEventsException;
import org.locus.kat.hint.KeyHints;
import org.locus.kat.ingest.ImportReport;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.placement.PlacementMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KAT's system-level path (seed 000 §3.4): a plain file written into a dataset's directory by
 * any client ({@code hdfs dfs -put}, a job's output) is redistributed by key without the writer
 * knowing. The organizer follows the NameNode's own event stream (HDFS inotify, which needs
 * HDFS superuser rights): when a file is closed, or renamed into place as {@code -put} does,
 * directly inside a watched dataset, it appends the file's records to their keys' buckets with
 * the same {@link KatImporter#append} the application-level {@code kat import --append} uses,
 * so both paths make identical placement decisions, and then deletes the file. Files already
 * there when it starts are organized first.
 *
 * <p>A file is organized exactly once from the organizer's point of view: the append either
 * lands completely (then the file is deleted) or is rolled back (the file stays, and the
 * failure is reported). Hidden ({@code .x}), underscore ({@code _x}) and {@code ._COPYING_}
 * files are left alone.
 */
public final class DatasetOrganizer {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetOrganizer.class);

  private final DistributedFileSystem fs;
  private final Set<Path> datasets = new TreeSet<>();
  private final Consumer<String> progress;
  private volatile long organized;

  /**
   * @param datasets the dataset directories to watch; each must hold a placement map
   * @param progress one line per organized file
   */
  public DatasetOrganizer(DistributedFileSystem fs, List<Path> datasets,
      Consumer<String> progress) throws IOException {
    this.fs = fs;
    this.progress = progress;
    for (Path dataset : datasets) {
      Path qualified = fs.makeQualified(dataset);
      PlacementMap.read(fs, qualified); // refuses a directory that is not a dataset, by name
      this.datasets.add(Path.getPathWithoutSchemeAndAuthority(qualified));
    }
  }

  /** @return files organized so far */
  public long organized() {
    return organized;
  }

  /** Organizes the files already sitting in the watched datasets' directories. */
  public void organizeExisting() throws IOException {
    for (Path dataset : datasets) {
      for (FileStatus status : fs.listStatus(dataset)) {
        // a file still being written is left for its close event
        if (status.isFile() && isCandidate(status.getPath().getName())
            && fs.isFileClosed(status.getPath())) {
          organize(dataset, Path.getPathWithoutSchemeAndAuthority(status.getPath()));
        }
      }
    }
  }

  /**
   * Follows the NameNode's events from now on until {@code keepRunning} says stop (checked at
   * least every second), organizing each file that lands in a watched dataset.
   */
  public void follow(BooleanSupplier keepRunning) throws IOException {
    DFSInotifyEventInputStream events = new HdfsAdmin(fs.getUri(), fs.getConf())
        .getInotifyEventStream();
    organizeExisting();
    while (keepRunning.getAsBoolean()) {
      EventBatch batch;
      try {
        batch = events.poll(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (MissingEventsException e) {
        LOG.warn("The NameNode's edit log no longer holds events {} to {}; organizing what the"
            + " datasets' directories hold now", e.getExpectedTxid(), e.getActualTxid());
        organizeExisting();
        continue;
      }
      if (batch != null) {
        for (Path file : landed(batch)) {
          Path dataset = file.getParent();
          if (datasets.contains(dataset) && fs.exists(file)) {
            organize(dataset, file);
          }
        }
      }
    }
  }

  /** Files that a batch closes or renames into place, in event order. */
  private static List<Path> landed(EventBatch batch) {
    List<Path> files = new ArrayList<>();
    for (Event event : batch.getEvents()) {
      String path = switch (event.getEventType()) {
        case CLOSE -> ((Event.CloseEvent) event).getPath();
        case RENAME -> ((Event.RenameEvent) event).getDstPath();
        default -> null;
      };
      if (path != null && isCandidate(new Path(path).getName())) {
        files.add(new Path(path));
      }
    }
    return files;
  }

  private static boolean isCandidate(String name) {
    return !name.startsWith(".") && !name.startsWith("_") && !name.endsWith("._COPYING_");
  }

  private void organize(Path dataset, Path file) throws IOException {
    PlacementMap map = PlacementMap.read(fs, dataset);
    KatImporter importer = new KatImporter(fs, KeyHints.parse(map.hint(), fs.getConf()),
        map.hint(), QueueDesign.DISTRIBUTED, map.buckets(), p -> { });
    ImportReport report = importer.append(file, dataset);
    if (!fs.delete(file, false)) {
      throw new IOException("organized " + file + " into " + dataset + " but could not delete"
          + " it; delete it by hand, or its records will be organized twice");
    }
    organized++;
    progress.accept(String.format("organized %s: %d records into %s", file, report.records(),
        dataset));
  }
}
