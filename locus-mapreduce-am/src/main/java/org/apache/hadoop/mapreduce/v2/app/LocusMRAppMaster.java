package org.apache.hadoop.mapreduce.v2.app;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.LocusRMContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.AMPreemptionPolicy;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MapReduce ApplicationMaster of a job under the Locus AM: the stock {@link MRAppMaster}
 * with {@link LocusRMContainerAllocator}, which places the job's tasks by its
 * {@link org.locus.mapreduce.am.TaskPlacement}, as its container allocator. Launched in place of
 * MRAppMaster by {@link org.locus.mapreduce.am.LocusYarnRunner}.
 *
 * <p>Such jobs never run as uber jobs (everything in the AM's container would defeat task
 * placement), so the stock allocator router, whose only job is choosing between the local and
 * the RM allocator, is not needed; the allocator is the router.
 */
public class LocusMRAppMaster extends MRAppMaster {
  private static final Logger LOG = LoggerFactory.getLogger(LocusMRAppMaster.class);
  private static final int SHUTDOWN_HOOK_PRIORITY = 30;

  private LocusRMContainerAllocator allocator;

  public LocusMRAppMaster(ApplicationAttemptId attemptId, ContainerId containerId,
      String nmHost, int nmPort, int nmHttpPort, long appSubmitTime) {
    super(attemptId, containerId, nmHost, nmPort, nmHttpPort, appSubmitTime);
  }

  @Override
  protected ContainerAllocator createContainerAllocator(ClientService clientService,
      AppContext context) {
    if (getConfig().getBoolean(MRJobConfig.JOB_UBERTASK_ENABLE, false)) {
      throw new YarnRuntimeException("a job under the Locus AM cannot run as an uber job; set "
          + MRJobConfig.JOB_UBERTASK_ENABLE + "=false");
    }
    AMPreemptionPolicy preemption = createPreemptionPolicy(getConfig());
    preemption.init(context);
    allocator = new LocusRMContainerAllocator(clientService, context, preemption);
    return allocator;
  }

  @Override
  public void notifyIsLastAMRetry(boolean isLastAMRetry) {
    if (allocator != null) {
      allocator.setShouldUnregister(isLastAMRetry);
    }
    super.notifyIsLastAMRetry(isLastAMRetry);
  }

  /** Entry point; reads the container environment the NodeManager sets for every AM. */
  public static void main(String[] args) {
    try {
      String containerId = requireEnv(Environment.CONTAINER_ID.name());
      String nmHost = requireEnv(Environment.NM_HOST.name());
      int nmPort = Integer.parseInt(requireEnv(Environment.NM_PORT.name()));
      int nmHttpPort = Integer.parseInt(requireEnv(Environment.NM_HTTP_PORT.name()));
      long submitTime = Long.parseLong(requireEnv(ApplicationConstants.APP_SUBMIT_TIME_ENV));
      ContainerId container = ContainerId.fromString(containerId);
      LocusMRAppMaster am = new LocusMRAppMaster(container.getApplicationAttemptId(),
          container, nmHost, nmPort, nmHttpPort, submitTime);
      ShutdownHookManager.get().addShutdownHook(am::stop, SHUTDOWN_HOOK_PRIORITY);
      JobConf conf = new JobConf(new YarnConfiguration());
      conf.addResource(new Path(MRJobConfig.JOB_CONF_FILE));
      MRWebAppUtil.initialize(conf);
      String user = requireEnv(Environment.USER.name());
      conf.set(MRJobConfig.USER_NAME, user);
      LOG.info("Starting the Locus MapReduce ApplicationMaster for {}", container);
      initAndStartAppMaster(am, conf, user);
    } catch (Throwable t) {
      LOG.error("Error starting LocusMRAppMaster", t);
      ExitUtil.terminate(1, t);
    }
  }

  private static String requireEnv(String name) {
    String value = System.getenv(name);
    if (value == null) {
      throw new IllegalStateException("environment variable " + name + " is not set; the"
          + " ApplicationMaster runs only in a YARN container");
    }
    return value;
  }
}
