package org.locus.mapreduce.am;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.YARNRunner;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.app.LocusMRAppMaster;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;

/**
 * Submits a job to YARN exactly as {@link YARNRunner} does, except that the job's
 * ApplicationMaster is {@link LocusMRAppMaster}, which places its tasks by the job's
 * {@link TaskPlacement}. Selected by {@code mapreduce.framework.name=}{@value
 * LocusAmConfigKeys#FRAMEWORK_NAME} through {@link LocusClientProtocolProvider}; Hadoop fixes
 * the AM class in YARNRunner, so this is the one place it can be chosen per job.
 */
public class LocusYarnRunner extends YARNRunner {
  public LocusYarnRunner(Configuration conf) {
    super(conf);
  }

  @Override
  public ApplicationSubmissionContext createApplicationSubmissionContext(Configuration jobConf,
      String jobSubmitDir, Credentials ts) throws IOException {
    ApplicationSubmissionContext context =
        super.createApplicationSubmissionContext(jobConf, jobSubmitDir, ts);
    ContainerLaunchContext am = context.getAMContainerSpec();
    List<String> commands = new ArrayList<>();
    boolean replaced = false;
    for (String command : am.getCommands()) {
      String swapped = command.replace(" " + MRJobConfig.APPLICATION_MASTER_CLASS + " ",
          " " + LocusMRAppMaster.class.getName() + " ");
      replaced |= !swapped.equals(command);
      commands.add(swapped);
    }
    if (!replaced) {
      throw new IOException("could not find " + MRJobConfig.APPLICATION_MASTER_CLASS
          + " in the AM launch command " + am.getCommands());
    }
    am.setCommands(commands);
    return context;
  }
}
