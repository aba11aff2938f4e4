package org.locus.cli.docs;

import org.junit.jupiter.api.extension.ExtendWith;
import org.locus.cli.OneNetnsTestAtATime;

/**
 * The documented {@code ```bash} blocks that start netns clusters, run as
 * {@link DocumentedBlockRuns} says, with the netns turn held from the first block to the last
 * like any netns test class.
 */
@ExtendWith(OneNetnsTestAtATime.class)
class DocumentedNetnsCommandsTest extends DocumentedBlockRuns {
  DocumentedNetnsCommandsTest() {
    super("/tmp/locus-documented-netns-commands.lock", true);
  }
}
