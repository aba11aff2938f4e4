package org.locus.kat.organize;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.locus.kat.hint.KeyHints;
import org.locus.kat.ingest.BucketRangeRemoval;
import org.locus.kat.ingest.KatImporter;
import org.locus.kat.ingest.QueueDesign;
import org.locus.kat.placement.PlacementMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KAT's system-level path (seed 000 §3.4): a plain file written into a dataset's directory by
 * any client ({@code hdfs dfs -put}, a job's output) is redistributed by key without the writer
 * knowing, and deleting or rewriting that file takes its records back out. The organizer
 * follows the NameNode's own event stream (HDFS inotify, which needs HDFS superuser rights);
 * each event that touches a watched dataset's directory (a file closed or appended to, renamed
 * in or out, deleted) makes it reconcile that directory with the dataset's {@link InputLedger}:
 *
 * <ul>
 *   <li>a file the ledger does not know has its records appended to their keys' buckets with
 *       the same {@link KatImporter#append} the application-level {@code kat import --append}
 *       uses, so both paths make identical placement decisions; the file is then emptied
 *       (truncated to 0 bytes, same inode) and stays as the input's handle;</li>
 *   <li>a handle that grew (an append to it) has the new bytes organized the same way;</li>
 *   <li>a name the ledger knows whose file is gone, or is a different file now (a new inode:
 *       {@code -put -f}, a create with overwrite), has its old records cut out of the buckets
 *       ({@link BucketRangeRemoval}); a rewritten file is then organized afresh.</li>
 * </ul>
 *
 * Directories are reconciled when the organizer starts too, so what happened while it was not
 * running is caught up. Order of each step: records appended (or rolled back on failure), file
 * emptied, ledger written; a crash between the last two leaves records that no input owns
 * (never twice-stored ones). Hidden ({@code .x}), underscore ({@code _x}) and
 * {@code ._COPYING_} files are left alone. One organizer per dataset at a time, and no
 * {@code kat import --append} into a dataset while its organizer removes records.
 */
public final class DatasetOrganizer {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetOrganizer.class);

  private final DistributedFileSystem fs;
  private final Set<Path> datasets = new TreeSet<>();
  private final Consumer<String> progress;
  private volatile long organized;
  private volatile long removed;

  /**
   * @param datasets the dataset directories to watch; each must hold a placement map
   * @param progress one line per organized or removed input
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

  /** @return inputs organized so far (an append to a handle counts once more) */
  public long organized() {
    return organized;
  }

  /** @return inputs whose records were taken out so far (deleted or rewritten) */
  public long removed() {
    return removed;
  }

  /** @return everything done so far: organized plus removed inputs */
  public long changes() {
    return organized + removed;
  }

  /** Reconciles every watched dataset with what its directory holds now. */
  public void organizeExisting() throws IOException {
    for (Path dataset : datasets) {
      reconcile(dataset);
    }
  }

  /**
   * Follows the NameNode's events from now on until {@code keepRunning} says stop (checked at
   * least every second), reconciling each watched dataset an event touches.
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
        LOG.warn("The NameNode's edit log no longer holds events {} to {}; reconciling what the"
            + " datasets' directories hold now", e.getExpectedTxid(), e.getActualTxid());
        organizeExisting();
        continue;
      }
      if (batch != null) {
        for (Path dataset : touched(batch)) {
          if (datasets.contains(dataset) && fs.exists(dataset)) {
            reconcile(dataset);
          }
        }
      }
    }
  }

  /** Directories in which a batch changed a candidate file, in event order. */
  private static Set<Path> touched(EventBatch batch) {
    Set<Path> dirs = new LinkedHashSet<>();
    for (Event event : batch.getEvents()) {
      List<String> paths = switch (event.getEventType()) {
        case CLOSE -> List.of(((Event.CloseEvent) event).getPath());
        case RENAME -> List.of(((Event.RenameEvent) event).getSrcPath(),
            ((Event.RenameEvent) event).getDstPath());
        case UNLINK -> List.of(((Event.UnlinkEvent) event).getPath());
        default -> List.of();
      };
      for (String path : paths) {
        Path file = new Path(path);
        if (file.getParent() != null && isCandidate(file.getName())) {
          dirs.add(file.getParent());
        }
      }
    }
    return dirs;
  }

  private static boolean isCandidate(String name) {
    return !name.startsWith(".") && !name.startsWith("_") && !name.endsWith("._COPYING_");
  }

  /** Brings one dataset's buckets in line with the inputs its directory holds. */
  private void reconcile(Path dataset) throws IOException {
    Map<String, HdfsFileStatus> present = new TreeMap<>();
    for (FileStatus status : fs.listStatus(dataset)) {
      if (status.isFile() && isCandidate(status.getPath().getName())) {
        present.put(status.getPath().getName(), (HdfsFileStatus) status);
      }
    }
    InputLedger ledger = InputLedger.read(fs, dataset);
    PlacementMap map = PlacementMap.read(fs, dataset);
    List<String> gone = new ArrayList<>();
    for (String name : ledger.names()) {
      HdfsFileStatus now = present.get(name);
      if (now == null || now.getFileId() != ledger.get(name).inodeId()) {
        gone.add(name);
      }
    }
    if (!gone.isEmpty()) {
      Map<String, Long> bytes = new TreeMap<>();
      for (String name : gone) {
        bytes.put(name, ledger.get(name).bytes());
      }
      new BucketRangeRemoval(fs).remove(dataset, map.ownership(), ledger.remove(gone));
      ledger.write(fs, dataset);
      for (String name : gone) {
        removed++;
        progress.accept(String.format("removed the records of %s (%d bytes) from %s",
            new Path(dataset, name), bytes.get(name), dataset));
      }
    }
    for (Map.Entry<String, HdfsFileStatus> e : present.entrySet()) {
      InputLedger.Entry known = ledger.get(e.getKey());
      HdfsFileStatus status = e.getValue();
      Path file = new Path(dataset, e.getKey());
      // a file still being written is left for its close event
      if ((known == null || status.getLen() > 0) && fs.isFileClosed(file)) {
        organize(dataset, map, file, status.getFileId(), ledger);
      }
    }
  }

  private void organize(Path dataset, PlacementMap map, Path file, long inodeId,
      InputLedger ledger) throws IOException {
    KatImporter importer = new KatImporter(fs, KeyHints.parse(map.hint(), fs.getConf()),
        map.hint(), QueueDesign.DISTRIBUTED, map.buckets(), p -> { });
    KatImporter.Appended appended = importer.appendRecorded(file, dataset);
    if (!fs.truncate(file, 0)) {
      throw new IOException("organized " + file + " into " + dataset + " but could not empty"
          + " it; delete it by hand, or its records will be organized twice");
    }
    ledger.add(file.getName(), inodeId, appended.ranges());
    ledger.write(fs, dataset);
    organized++;
    progress.accept(String.format("organized %s: %d records into %s", file,
        appended.report().records(), dataset));
  }
}
