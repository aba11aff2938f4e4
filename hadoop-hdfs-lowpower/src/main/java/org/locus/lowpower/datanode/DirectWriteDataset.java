package org.locus.lowpower.datanode;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.LinkedHashSet;
import java.util.Set;

import org.apache.hadoop.hdfs.server.datanode.ReplicaHandler;
import org.apache.hadoop.hdfs.server.datanode.ReplicaInPipeline;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;

/**
 * Hadoop's dataset, seen by the DataNode through a {@link Proxy} that forwards every call
 * unchanged except the ones that hand out a replica being written: {@code createRbw},
 * {@code createTemporary}, {@code append}, {@code recoverAppend}, {@code recoverRbw} (each a
 * {@link ReplicaHandler}) and {@code convertTemporaryToRbw} (a {@link ReplicaInPipeline}). Their
 * replica comes back as a {@link DirectWriteReplica}, whose streams write the block file with
 * {@code O_DIRECT}. The dataset's own state (volume map, locks, reports) is untouched: it keeps
 * the original replica objects, and the DataNode's later calls name blocks, not replicas.
 *
 * <p>Hadoop's {@code BlockReceiver} is the only user of a created replica's streams, and it only
 * uses the {@code ReplicaInPipeline} interface, which is why a proxy of that interface suffices.
 */
final class DirectWriteDataset implements InvocationHandler {
  private final FsDatasetSpi<?> stock;
  private final int bufferBytes;

  private DirectWriteDataset(FsDatasetSpi<?> stock, int bufferBytes) {
    this.stock = stock;
    this.bufferBytes = bufferBytes;
  }

  /** @return {@code stock} behind a proxy with every public interface its class implements */
  static FsDatasetSpi<?> wrap(FsDatasetSpi<?> stock, int bufferBytes) {
    Set<Class<?>> interfaces = new LinkedHashSet<>();
    for (Class<?> c = stock.getClass(); c != null; c = c.getSuperclass()) {
      for (Class<?> i : c.getInterfaces()) {
        if (java.lang.reflect.Modifier.isPublic(i.getModifiers())) {
          interfaces.add(i);
        }
      }
    }
    return (FsDatasetSpi<?>) Proxy.newProxyInstance(FsDatasetSpi.class.getClassLoader(),
        interfaces.toArray(new Class<?>[0]), new DirectWriteDataset(stock, bufferBytes));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    Object result;
    try {
      result = method.invoke(stock, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    if (result instanceof ReplicaHandler) {
      ReplicaHandler handler = (ReplicaHandler) result;
      return DirectWriteReplica.wrapHandler(handler, bufferBytes);
    }
    if (result instanceof ReplicaInPipeline && method.getName().equals("convertTemporaryToRbw")) {
      return DirectWriteReplica.wrap((ReplicaInPipeline) result, bufferBytes);
    }
    return result;
  }
}
