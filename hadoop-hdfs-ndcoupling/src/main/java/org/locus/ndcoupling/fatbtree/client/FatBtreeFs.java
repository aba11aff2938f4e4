package org.locus.ndcoupling.fatbtree.client;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

/**
 * {@code locusfbt://} for {@code FileContext} users ({@code fs.AbstractFileSystem.locusfbt.impl}):
 * every call goes to a {@link FatBtreeFileSystem}, as {@code LocusFs} does for {@code locus://}.
 */
public class FatBtreeFs extends DelegateToFileSystem {
  public FatBtreeFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    // false: an entry node named by its nameservice has no port, which "authority required"
    // would demand; FatBtreeFileSystem checks the authority itself
    super(uri, new FatBtreeFileSystem(), conf, FatBtreeFileSystem.SCHEME, false);
  }
}
