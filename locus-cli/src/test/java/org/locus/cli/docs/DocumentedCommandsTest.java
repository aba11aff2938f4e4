package org.locus.cli.docs;

/**
 * The documented {@code ```bash} blocks that start no netns cluster (embedded and local
 * clusters, tools, images), run as {@link DocumentedBlockRuns} says. They never wait for a netns
 * turn, so they run beside the netns test classes.
 */
class DocumentedCommandsTest extends DocumentedBlockRuns {
  DocumentedCommandsTest() {
    super("/tmp/locus-documented-commands.lock", false);
  }
}
