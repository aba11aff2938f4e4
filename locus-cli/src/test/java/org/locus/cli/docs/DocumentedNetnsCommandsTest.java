package org.locus.cli.docs;

import org.locus.cli.StartsNetnsClusters;

/**
 * The documented {@code ```bash} blocks that start netns clusters, run as
 * {@link DocumentedBlockRuns} says, with the netns turn held from the first block to the last
 * like any netns test class.
 */
@StartsNetnsClusters
class DocumentedNetnsCommandsTest extends DocumentedBlockRuns {
  DocumentedNetnsCommandsTest() {
    super("/tmp/locus-documented-netns-commands.lock", true);
  }
}
