package org.locus.ndcoupling.client;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

/**
 * {@code locus://} for {@code FileContext} users ({@code fs.AbstractFileSystem.locus.impl}):
 * the JobHistory server, the MapReduce AM's history files and YARN's log aggregation reach
 * the default file system through {@code FileContext}, not {@code FileSystem}. Every call goes
 * to a {@link LocusFileSystem}, as Hadoop's own {@code RawLocalFs} does for the local one.
 */
public class LocusFs extends DelegateToFileSystem {
  public LocusFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    // false: with "authority required" Hadoop demands a default port, which an entry node
    // named by its nameservice has not; LocusFileSystem refuses a URI without one itself
    super(uri, new LocusFileSystem(), conf, LocusFileSystem.SCHEME, false);
  }
}
