package org.locus.netns;

/**
 * What each of a netns cluster's disks behaves like ({@code --disk-model}).
 *
 * <p>{@link #NONE}: a sparse image file behind a loop device, as fast as the host's own disk
 * unless {@code --disk-read}/{@code --disk-write} throttle it; no seek cost. {@link #HDD}: the
 * image is served by {@code zonedisk --drive=}{@value #HDD_DRIVE} ({@link HddEmulator}), which
 * paces every request by the HDD model of that drive's datasheet (seek by head travel,
 * rotation, read-ahead; docs/zone.md), so random I/O pays for moving the head. The throttles
 * still apply above the model. The drive is simulated hardware, and every figure measured on it
 * is labelled modelled.
 */
public enum DiskModel implements OptionWord {
  /** A loop device over a plain image file. */
  NONE("none", "loop device over an image file"),
  /** A loop device over zonedisk's HDD model of {@value #HDD_DRIVE}. */
  HDD("hdd", "emulated HDD (modelled Seagate ES.3 " + DiskModel.HDD_DRIVE
      + "), simulated hardware");

  /** The drive of zonedisk's table that {@link #HDD} emulates (issue 48: one named drive). */
  public static final String HDD_DRIVE = "ST4000NM0033";

  private final String word;
  private final String label;

  DiskModel(String word, String label) {
    this.word = word;
    this.label = label;
  }

  /** @return the value of {@code --disk-model} that selects this model */
  @Override
  public String word() {
    return word;
  }

  /** @return what {@code cluster status} says the disks are */
  public String label() {
    return label;
  }

  /** @return whether the disks are served by {@link HddEmulator} */
  public boolean emulated() {
    return this == HDD;
  }

  /**
   * @param option the option or key the text came from, named in the error
   * @return the model {@code text} names
   * @throws IllegalArgumentException naming the option and the accepted values
   */
  public static DiskModel of(String option, String text) {
    return OptionWord.parse(values(), "disk model", option, text);
  }

}
