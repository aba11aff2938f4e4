package org.locus.netns;

import java.util.Arrays;
import java.util.stream.Collectors;

/** A choice named on the command line or in a file by one word (e.g. {@code --metadata sdp}). */
interface OptionWord {
  /** @return the word that names this choice */
  String word();

  /**
   * @param choices every value of the choice
   * @param what what the choice is, named in the error (e.g. "metadata layout")
   * @param option the option or key the text came from, named in the error
   * @return the choice {@code text} names, surrounding blanks ignored
   * @throws IllegalArgumentException naming the text, the option and the accepted words
   */
  static <T extends OptionWord> T parse(T[] choices, String what, String option, String text) {
    for (T choice : choices) {
      if (choice.word().equals(text.trim())) {
        return choice;
      }
    }
    throw new IllegalArgumentException("unknown " + what + " '" + text + "' for " + option
        + "; one of " + Arrays.stream(choices).map(OptionWord::word)
        .collect(Collectors.joining(", ")));
  }
}
