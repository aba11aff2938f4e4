package org.apache.hadoop.mapreduce.v2.app.rm;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobCounterUpdateEvent;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.AMPreemptionPolicy;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.yarn.util.RackResolver;
import org.locus.mapreduce.am.LocusAmConfigKeys;
import org.locus.mapreduce.am.LocusJobCounter;
import org.locus.mapreduce.am.StrictLocalityScheduler;
import org.locus.mapreduce.am.TaskPlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MapReduce AM's container allocator with a job's {@link TaskPlacement}: reducer {@code p}
 * runs on the host the placement names for it, and where the placement says so, a map waits
 * for a host its split names. The mechanism for every Locus feature that places tasks (KAT's
 * owner-aligned reducers today).
 *
 * <p>Four changes to {@link RMContainerAllocator}, all on the allocation path and using the
 * stock mechanism otherwise (package-private members, hence Hadoop's package):
 * <ol>
 *   <li>A first-attempt reducer asks YARN for the host its placement names instead of any
 *       host.</li>
 *   <li>While maps are still running and every scheduled reducer names its host, the reduce
 *       asks go to YARN strict ({@link StrictLocalityScheduler}): a reducer waits for room on
 *       its host instead of being offered another one, and is not asked for there at all
 *       while a map that must run on that host still waits for a container (an idle reducer
 *       would take its slot). Reducers can so be asked for at the job's own slow-start and
 *       start beside the maps, as stock reducers do, without the offers on busy hosts
 *       spending the refusal budget. Once every map is done, the asks are relaxable again, so
 *       a dead host's reducer falls back as below.</li>
 *   <li>YARN relaxes locality after as many missed offers as there are nodes, so a busy host
 *       loses its tasks to other hosts within a second. A reduce container (and, if the
 *       placement's maps wait for their hosts, a map container) on a host that no pending task
 *       of its kind wants is therefore released and its ask sent again, up to
 *       {@value #REFUSALS_PER_TASK} times per task of the job; past that budget the stock
 *       fallback applies, so a dead host delays but never blocks the job.</li>
 *   <li>Stock assignment hands reduce containers, in list order, to pending reducers in map
 *       order whatever their host; the pending reducers are reordered to match each allocation
 *       before the stock code assigns it.</li>
 *   <li>Stock assignment hands a map container on host H to the first pending map whose split
 *       names H. Where the placement names superlocal or backup hosts, that list is reordered
 *       before the stock code assigns the container: maps superlocal on H first, then the
 *       other maps whose split names H, then those merely backup-local on H, so the levels are
 *       superlocal, node-local, backup-local, rack-local, any; map attempts given a container
 *       at the first and third level are counted in {@link LocusJobCounter#SUPERLOCAL_MAPS} and
 *       {@link LocusJobCounter#BACKUP_LOCAL_MAPS} (at assignment, as the stock
 *       {@code DATA_LOCAL_MAPS}: an attempt killed before it starts counts too). The list is
 *       the stock allocator's private {@value #MAPS_BY_HOST_FIELD} field, reached by
 *       reflection: the AM refuses to start, naming it, if a Hadoop version lacks it.</li>
 * </ol>
 */
public class LocusRMContainerAllocator extends RMContainerAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(LocusRMContainerAllocator.class);

  /** How many off-host containers may be refused, per task of the job. */
  static final int REFUSALS_PER_TASK = 5;

  /** The stock allocator's host to pending-maps lists ({@code ScheduledRequests}). */
  static final String MAPS_BY_HOST_FIELD = "mapsHostMapping";

  private TaskPlacement placement;
  private int refusalsLeft;
  private int refused;
  private Map<String, LinkedList<TaskAttemptId>> mapsByHost;
  /** Map attempts seen launched, so each is counted once. */
  private final Set<TaskAttemptId> launchedMaps = new HashSet<>();
  private long superlocalMaps;
  private long backupLocalMaps;

  public LocusRMContainerAllocator(ClientService clientService, AppContext context,
      AMPreemptionPolicy preemptionPolicy) {
    super(clientService, context, preemptionPolicy);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    super.serviceInit(conf);
    placement = createPlacement(conf);
    mapsByHost = stockMapsByHost(getScheduledRequests());
  }

  @SuppressWarnings("unchecked")
  static Map<String, LinkedList<TaskAttemptId>> stockMapsByHost(ScheduledRequests scheduled) {
    try {
      Field field = ScheduledRequests.class.getDeclaredField(MAPS_BY_HOST_FIELD);
      field.setAccessible(true);
      return (Map<String, LinkedList<TaskAttemptId>>) field.get(scheduled);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException("this Hadoop's RMContainerAllocator.ScheduledRequests has no"
          + " field " + MAPS_BY_HOST_FIELD + " (Map<String, LinkedList<TaskAttemptId>>); the"
          + " Locus AM is built for Hadoop 3.5.0", e);
    }
  }

  /** The job's placement, from {@link LocusAmConfigKeys#TASK_PLACEMENT}. */
  static TaskPlacement createPlacement(Configuration conf) {
    String name = conf.getTrimmed(LocusAmConfigKeys.TASK_PLACEMENT, "");
    if (name.isEmpty()) {
      throw new IllegalArgumentException(LocusAmConfigKeys.TASK_PLACEMENT + " is not set: a job"
          + " under the Locus AM names its TaskPlacement class there");
    }
    Class<?> type;
    try {
      type = conf.getClassByName(name);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(LocusAmConfigKeys.TASK_PLACEMENT + " = " + name
          + ": no such class on the AM's classpath (mapreduce.application.classpath)", e);
    }
    if (!TaskPlacement.class.isAssignableFrom(type)) {
      throw new IllegalArgumentException(LocusAmConfigKeys.TASK_PLACEMENT + " = " + name
          + " is not a " + TaskPlacement.class.getName());
    }
    TaskPlacement placement = (TaskPlacement) ReflectionUtils.newInstance(type, conf);
    LOG.info("Placing tasks with {}", placement);
    return placement;
  }

  @Override
  protected ApplicationMasterProtocol createSchedulerProxy() {
    return new StrictLocalityScheduler(super.createSchedulerProxy(), PRIORITY_REDUCE,
        this::reducersHeldToTheirHosts, this::aMapStillWaitsFor);
  }

  /** Whether a map not yet given a container asks for this host. */
  private boolean aMapStillWaitsFor(String host) {
    for (ContainerRequest request : getScheduledRequests().maps.values()) {
      if (namesHost(request, host)) {
        return true;
      }
    }
    return false;
  }

  private static boolean namesHost(ContainerRequest request, String host) {
    return request.hosts != null && Arrays.asList(request.hosts).contains(host);
  }

  /**
   * Whether the reduce asks go strict: while maps run, a reducer can wait for its host; after
   * them, and for a reducer rerun without a host, waiting would only delay the job.
   */
  private boolean reducersHeldToTheirHosts() {
    Job job = getJob();
    if (job == null || job.getCompletedMaps() >= job.getTotalMaps()) {
      return false;
    }
    for (ContainerRequest request : getScheduledRequests().reduces.values()) {
      if (request.hosts == null || request.hosts.length == 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  protected void serviceStart() throws Exception {
    super.serviceStart();
    refusalsLeft = REFUSALS_PER_TASK * (getJob().getTotalMaps() + getJob().getTotalReduces());
  }

  /** Rewrites a first-attempt reducer's request to ask for its partition's host. */
  @Override
  protected synchronized void handleEvent(ContainerAllocatorEvent event) {
    if (event instanceof ContainerRequestEvent request
        && request.getAttemptID().getTaskId().getTaskType() == TaskType.REDUCE
        && !request.getEarlierAttemptFailed()) {
      String host = hostOf(request.getAttemptID());
      if (host != null) {
        String rack = RackResolver.resolve(host).getNetworkLocation();
        event = new ContainerRequestEvent(request.getAttemptID(), request.getCapability(),
            new String[] {host}, new String[] {rack});
      }
    }
    super.handleEvent(event);
  }

  @Override
  protected AllocateResponse makeRemoteRequest() throws YarnException, IOException {
    AllocateResponse response = super.makeRemoteRequest();
    List<Container> allocated = response.getAllocatedContainers();
    if (placement.mapsWaitForTheirHosts()) {
      refuseOffHostContainers(allocated, PRIORITY_MAP, getScheduledRequests().maps);
    }
    refuseOffHostContainers(allocated, PRIORITY_REDUCE, getScheduledRequests().reduces);
    matchReducersToContainers(allocated);
    orderMapsByLevel(allocated);
    return response;
  }

  /** Counts the map attempts assigned since the last heartbeat on a superlocal or backup host. */
  @Override
  protected synchronized void heartbeat() throws Exception {
    super.heartbeat();
    Map<TaskAttemptId, Container> running = getAssignedRequests().maps;
    launchedMaps.retainAll(running.keySet());
    long superlocal = 0;
    long backupLocal = 0;
    for (Map.Entry<TaskAttemptId, Container> e : running.entrySet()) {
      if (!launchedMaps.add(e.getKey())) {
        continue;
      }
      int map = e.getKey().getTaskId().getId();
      String host = e.getValue().getNodeId().getHost();
      if (placement.superlocalHosts(map).contains(host)) {
        superlocal++;
      } else if (placement.backupHosts(map).contains(host)) {
        backupLocal++;
      }
    }
    if (superlocal + backupLocal > 0) {
      superlocalMaps += superlocal;
      backupLocalMaps += backupLocal;
      JobCounterUpdateEvent update = new JobCounterUpdateEvent(getJob().getID());
      if (superlocal > 0) {
        update.addCounterUpdate(LocusJobCounter.SUPERLOCAL_MAPS, superlocal);
      }
      if (backupLocal > 0) {
        update.addCounterUpdate(LocusJobCounter.BACKUP_LOCAL_MAPS, backupLocal);
      }
      eventHandler.handle(update);
      LOG.info("{} map(s) launched superlocal, {} backup-local ({} and {} in all)", superlocal,
          backupLocal, superlocalMaps, backupLocalMaps);
    }
  }

  /**
   * Before the stock assignment takes, for a map container on host H, the first pending map
   * listed for H: orders that list superlocal, node-local, backup-local.
   */
  private void orderMapsByLevel(List<Container> allocated) {
    for (Container container : allocated) {
      if (PRIORITY_MAP.equals(container.getPriority())) {
        String host = container.getNodeId().getHost();
        LinkedList<TaskAttemptId> waiting = mapsByHost.get(host);
        if (waiting != null) {
          byLevel(waiting, host, placement::superlocalHosts, placement::backupHosts);
        }
      }
    }
  }

  /**
   * Puts the attempts whose map is superlocal on {@code host} first and those whose map is
   * backup-local there last, each group in its own order. A host that is both counts as
   * superlocal.
   */
  static void byLevel(LinkedList<TaskAttemptId> attempts, String host,
      IntFunction<Collection<String>> superlocalHosts,
      IntFunction<Collection<String>> backupHosts) {
    List<TaskAttemptId> first = new ArrayList<>();
    List<TaskAttemptId> middle = new ArrayList<>();
    List<TaskAttemptId> last = new ArrayList<>();
    for (TaskAttemptId id : attempts) {
      int map = id.getTaskId().getId();
      if (superlocalHosts.apply(map).contains(host)) {
        first.add(id);
      } else if (backupHosts.apply(map).contains(host)) {
        last.add(id);
      } else {
        middle.add(id);
      }
    }
    attempts.clear();
    attempts.addAll(first);
    attempts.addAll(middle);
    attempts.addAll(last);
  }

  /**
   * Releases the containers of one priority that sit on a host no pending request of that
   * priority names, and re-sends the asks so YARN offers another container.
   */
  private void refuseOffHostContainers(List<Container> allocated,
      org.apache.hadoop.yarn.api.records.Priority priority,
      Map<TaskAttemptId, ContainerRequest> pending) {
    if (pending.isEmpty()) {
      return;
    }
    Set<ContainerRequest> claimed = new HashSet<>();
    Iterator<Container> it = allocated.iterator();
    while (it.hasNext() && refusalsLeft > 0) {
      Container container = it.next();
      if (!priority.equals(container.getPriority())) {
        continue;
      }
      String host = container.getNodeId().getHost();
      ContainerRequest wanting = null;
      for (ContainerRequest request : pending.values()) {
        boolean anyHost = request.hosts == null || request.hosts.length == 0;
        if (!claimed.contains(request)
            && (anyHost || namesHost(request, host))) {
          wanting = request;
          break;
        }
      }
      if (wanting != null) {
        claimed.add(wanting);
        continue;
      }
      it.remove();
      release(container.getId());
      ContainerRequest again = pending.values().iterator().next();
      decContainerReq(again);
      addContainerReq(again);
      refusalsLeft--;
      refused++;
      LOG.info("Refused {} container on {}: no pending task of that kind asks for it ({} refused,"
          + " {} left)", priority, host, refused, refusalsLeft);
    }
  }

  /**
   * Orders the scheduled reducers so that the stock assignment, which hands the reduce
   * containers in list order to reducers in map order, gives each container to a reducer of its
   * host where there is one.
   */
  private void matchReducersToContainers(List<Container> allocated) {
    LinkedHashMap<TaskAttemptId, ContainerRequest> reduces = getScheduledRequests().reduces;
    if (reduces.isEmpty()) {
      return;
    }
    List<Container> reduceContainers = new ArrayList<>();
    for (Container c : allocated) {
      if (PRIORITY_REDUCE.equals(c.getPriority())) {
        reduceContainers.add(c);
      }
    }
    if (reduceContainers.isEmpty()) {
      return;
    }
    List<TaskAttemptId> order = new ArrayList<>();
    Set<TaskAttemptId> taken = new HashSet<>();
    List<Integer> unmatchedSlots = new ArrayList<>();
    for (Container container : reduceContainers) {
      String host = container.getNodeId().getHost();
      TaskAttemptId match = null;
      for (TaskAttemptId id : reduces.keySet()) {
        if (!taken.contains(id) && host.equals(hostOf(id))) {
          match = id;
          break;
        }
      }
      if (match == null) {
        unmatchedSlots.add(order.size());
      } else {
        taken.add(match);
      }
      order.add(match);
    }
    List<TaskAttemptId> rest = new ArrayList<>();
    for (TaskAttemptId id : reduces.keySet()) {
      if (!taken.contains(id)) {
        rest.add(id);
      }
    }
    for (int slot : unmatchedSlots) {
      if (!rest.isEmpty()) {
        order.set(slot, rest.remove(0));
      }
    }
    order.removeIf(id -> id == null);
    order.addAll(rest);
    Map<TaskAttemptId, ContainerRequest> copy = new LinkedHashMap<>(reduces);
    reduces.clear();
    for (TaskAttemptId id : order) {
      reduces.put(id, copy.get(id));
    }
    LOG.info("Matched {} of {} reduce containers to their reducers' hosts",
        reduceContainers.size() - unmatchedSlots.size(), reduceContainers.size());
  }

  private String hostOf(TaskAttemptId attempt) {
    return placement.reducerHost(attempt.getTaskId().getId());
  }
}
