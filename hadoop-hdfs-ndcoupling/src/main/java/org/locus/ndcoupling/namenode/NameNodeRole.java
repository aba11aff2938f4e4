package org.locus.ndcoupling.namenode;

/**
 * What a gear service says of the NameNode it runs in: its HA state and the last edit it has
 * applied. With metadata copies (an HA pair per partition) the gear commands ask every NameNode
 * of a partition which one is active, and watch a returning standby's applied edits reach the
 * active's to time how long it took to catch up.
 */
interface NameNodeRole {
  /** A NameNode without HA: always active; its applied edits are not watched. */
  NameNodeRole ALONE = new NameNodeRole() {
    @Override
    public String nameNodeId() {
      return "";
    }

    @Override
    public String haState() {
      return "active";
    }

    @Override
    public long appliedTxId() {
      return -1;
    }

    @Override
    public boolean inSafeMode() {
      return false;
    }
  };

  /** @return the NameNode's id in its HA pair ({@code dfs.ha.namenode.id}) */
  String nameNodeId();

  /** @return {@code active}, {@code standby}, or another of Hadoop's HA states in lower case */
  String haState();

  /** @return the id of the last edit this NameNode wrote (active) or applied (standby) */
  long appliedTxId();

  /**
   * @return whether the NameNode is in safe mode: a NameNode just started stays there until the
   *     DataNodes have reported enough of its blocks, and discards further full block reports
   *     meanwhile
   */
  boolean inSafeMode();
}
