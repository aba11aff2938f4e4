package org.locus.lowpower.datanode;

import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

import org.apache.hadoop.hdfs.server.datanode.LocalReplica;
import org.apache.hadoop.hdfs.server.datanode.ReplicaHandler;
import org.apache.hadoop.hdfs.server.datanode.ReplicaInPipeline;
import org.apache.hadoop.hdfs.server.datanode.ReplicaInfo;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.ReplicaOutputStreams;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.util.DataChecksum;

/**
 * A replica being written, whose {@code createStreams} opens the block file with
 * {@code O_DIRECT}; every other call goes to Hadoop's replica. The stock {@code createStreams}
 * runs first, so the checksum choice, the append and recovery checks and the meta file are
 * Hadoop's own; only its block-file stream is then replaced by a {@link DirectBlockOutputStream}
 * at the same position. Replicas on transient (RAM_DISK) volumes and replicas that are not
 * local files keep the stock streams.
 */
final class DirectWriteReplica implements InvocationHandler {
  private final ReplicaInPipeline stock;
  private final int bufferBytes;

  private DirectWriteReplica(ReplicaInPipeline stock, int bufferBytes) {
    this.stock = stock;
    this.bufferBytes = bufferBytes;
  }

  static ReplicaInPipeline wrap(ReplicaInPipeline stock, int bufferBytes) {
    return (ReplicaInPipeline) Proxy.newProxyInstance(ReplicaInPipeline.class.getClassLoader(),
        new Class<?>[] {ReplicaInPipeline.class}, new DirectWriteReplica(stock, bufferBytes));
  }

  /** The same handler with its replica wrapped; closing it releases the stock volume reference. */
  static ReplicaHandler wrapHandler(ReplicaHandler stock, int bufferBytes) {
    return new ReplicaHandler(wrap(stock.getReplica(), bufferBytes), null) {
      @Override
      public void close() throws IOException {
        stock.close();
      }
    };
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getName().equals("createStreams") && args != null && args.length == 2) {
      return createStreams((Boolean) args[0], (DataChecksum) args[1]);
    }
    try {
      return method.invoke(stock, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private ReplicaOutputStreams createStreams(boolean isCreate, DataChecksum requested)
      throws IOException {
    ReplicaOutputStreams streams = stock.createStreams(isCreate, requested);
    ReplicaInfo info = stock.getReplicaInfo();
    if (!(info instanceof LocalReplica) || info.getVolume().isTransientStorage()
        || !(streams.getDataOut() instanceof FileOutputStream)) {
      return streams;
    }
    LocalReplica replica = (LocalReplica) info;
    FileOutputStream stockData = (FileOutputStream) streams.getDataOut();
    DirectBlockOutputStream direct = null;
    try {
      long position = stockData.getChannel().position();
      direct = DirectBlockOutputStream.open(replica.getBlockFile(), position, bufferBytes);
      stockData.close();
      return new DirectReplicaOutputStreams(direct, streams, replica);
    } catch (IOException | RuntimeException e) {
      IOUtils.closeStream(direct);
      streams.close();
      throw new IOException("cannot open " + replica.getBlockFile() + " for O_DIRECT writes: "
          + e.getMessage(), e);
    }
  }
}
