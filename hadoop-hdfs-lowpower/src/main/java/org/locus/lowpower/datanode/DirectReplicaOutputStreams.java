package org.locus.lowpower.datanode;

import java.io.IOException;

import org.apache.hadoop.hdfs.server.datanode.LocalReplica;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.ReplicaOutputStreams;

/**
 * A replica's streams with the block data going to a {@link DirectBlockOutputStream} and the
 * checksums to Hadoop's own meta-file stream.
 *
 * <p>One duty moves here from Hadoop's {@code BlockReceiver}: on the first hsync it fsyncs the
 * directory holding the block file, but only when its replica object is a
 * {@code LocalReplica}, which the DataNode cannot see through {@link DirectWriteReplica}'s
 * proxy. The first {@link #syncDataOut()} does it instead, so a synced block's directory entry
 * is as durable as with stock streams.
 */
final class DirectReplicaOutputStreams extends ReplicaOutputStreams {
  private final LocalReplica replica;
  private boolean directorySynced;

  DirectReplicaOutputStreams(DirectBlockOutputStream dataOut, ReplicaOutputStreams stock,
      LocalReplica replica) {
    super(dataOut, stock.getChecksumOut(), stock.getChecksum(), replica.getVolume(),
        replica.getVolume().getFileIoProvider());
    this.replica = replica;
  }

  @Override
  public void syncDataOut() throws IOException {
    super.syncDataOut();
    if (!directorySynced) {
      replica.fsyncDirectory();
      directorySynced = true;
    }
  }
}
