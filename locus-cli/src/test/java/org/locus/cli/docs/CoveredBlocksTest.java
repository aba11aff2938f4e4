package org.locus.cli.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class CoveredBlocksTest {
  @Test
  void commentsAndBlankLinesAreNotCommands() {
    assertEquals(List.of("bin/locus cluster up --dir /tmp/c", "echo '#1' > /tmp/x"),
        CoveredBlocks.commands("# start\nbin/locus cluster up  --dir /tmp/c   # a cluster\n\n"
            + "echo '#1' > /tmp/x\n"));
  }

  @Test
  void aBlockWhoseCommandsAnotherRunsInTheSameOrderIsCovered() {
    String shortOne = "up\nput # one file\ndown\n";
    String longOne = "up\nput\nverify\ndown\n";
    assertEquals(Map.of(0, 1), CoveredBlocks.coveredBy(List.of(shortOne, longOne)));
  }

  @Test
  void theSameCommandsInAnotherOrderOrOneMoreCommandAreNotCovered() {
    assertEquals(Map.of(), CoveredBlocks.coveredBy(List.of("up\ndown\nput\n", "up\nput\ndown\n")));
    assertEquals(Map.of(), CoveredBlocks.coveredBy(List.of("up\nput\nwake\ndown\n",
        "up\nput\nverify\ndown\n")));
  }

  @Test
  void ofTwoIdenticalBlocksTheFirstRunsAndNoBlockIsRunByACoveredOne() {
    assertEquals(Map.of(1, 0), CoveredBlocks.coveredBy(List.of("up\ndown\n", "up # again\ndown\n")));
    // a ⊂ b ⊂ c: both a and b are run by c, never by b
    Map<Integer, Integer> chain = CoveredBlocks.coveredBy(List.of("up\ndown\n", "up\nput\ndown\n",
        "up\nput\ncat\ndown\n"));
    assertEquals(Map.of(0, 2, 1, 2), chain);
  }

  @Test
  void theReadmesCoveredBlocksAreRunByTheirFeaturePages() throws Exception {
    List<RepositoryDocs.Block> bash = new ArrayList<>();
    for (File page : RepositoryDocs.pages()) {
      for (RepositoryDocs.Block block : RepositoryDocs.blocks(page)) {
        if (block.language().equals("bash")) {
          bash.add(block);
        }
      }
    }
    Map<Integer, Integer> covered = CoveredBlocks.coveredBy(bash.stream()
        .map(RepositoryDocs.Block::text).toList());
    assertFalse(covered.isEmpty(), "the README repeats commands of the feature pages");
    covered.forEach((a, b) -> {
      assertTrue(CoveredBlocks.inOrder(CoveredBlocks.commands(bash.get(a).text()),
          CoveredBlocks.commands(bash.get(b).text())), bash.get(a).name());
      assertFalse(covered.containsKey(b), bash.get(b).name() + " itself runs");
    });
  }
}
