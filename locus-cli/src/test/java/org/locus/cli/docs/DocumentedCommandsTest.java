package org.locus.cli.docs;

/**
 * The documented {@code ```bash} blocks that start no netns cluster (embedded and local
 * clusters, tools, images), run as {@link DocumentedBlockRuns} says. They never wait for a netns
 * turn, so they run beside the netns test classes.
 */
class DocumentedCommandsTest extends DocumentedBlockRuns {
  static final String LOCK = "/tmp/locus-documented-commands.lock";

  @Override
  String lock() {
    return LOCK;
  }

  @Override
  boolean runs(RepositoryDocs.Block block) {
    return !startsNetns(block);
  }
}
