package org.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * scripts/test selects the classes that start netns clusters by their JUnit tag, and those
 * classes take turns through the extension: a class that starts clusters without both would
 * either run beside another netns class or not run in the suite's netns run at all. Checked as
 * JUnit itself finds annotations (through the composed {@link StartsNetnsClusters}).
 */
class StartsNetnsClustersTest {
  /** The Netns* classes that start no cluster: they check what up refuses before it starts. */
  private static final Set<String> START_NONE = Set.of("NetnsUpRefusalTest");

  @Test
  void theMarkCarriesTheTagAndTheTurn() {
    assertEquals(List.of(StartsNetnsClusters.TAG), AnnotationSupport
        .findRepeatableAnnotations(NetnsClusterTest.class, Tag.class).stream()
        .map(Tag::value).toList());
    assertTrue(AnnotationSupport.findRepeatableAnnotations(NetnsClusterTest.class,
        ExtendWith.class).stream().anyMatch(extend -> List.of(extend.value())
            .contains(OneNetnsTestAtATime.class)), "NetnsClusterTest takes the netns turn");
  }

  @Test
  void everyNetnsTestClassIsMarked() throws Exception {
    List<String> netnsClasses;
    Path classes = Path.of("target", "test-classes", "org", "locus", "cli");
    try (Stream<Path> files = Files.list(classes)) {
      netnsClasses = files.map(path -> path.getFileName().toString())
          .filter(name -> name.matches("Netns\\w*Test\\.class"))
          .map(name -> name.substring(0, name.length() - ".class".length()))
          .filter(name -> !START_NONE.contains(name)).sorted().toList();
    }
    assertTrue(netnsClasses.size() >= 10, "found the netns classes: " + netnsClasses);
    for (String name : netnsClasses) {
      assertTrue(marked(Class.forName("org.locus.cli." + name)), name + " is not marked");
    }
    assertTrue(marked(Class.forName("org.locus.cli.docs.DocumentedNetnsCommandsTest")));
    assertFalse(marked(NetnsUpRefusalTest.class), "the refusals need no turn");
  }

  private static boolean marked(Class<?> testClass) {
    return AnnotationSupport.isAnnotated(testClass, StartsNetnsClusters.class);
  }

  @Test
  void theSuiteRunsTheTaggedClassesOnTheirOwn() throws IOException {
    String script = Files.readString(Path.of("..", "scripts", "test"));
    assertTrue(script.contains("-Dgroups=" + StartsNetnsClusters.TAG), script);
    assertTrue(script.contains("-DexcludedGroups=" + StartsNetnsClusters.TAG), script);
  }
}
