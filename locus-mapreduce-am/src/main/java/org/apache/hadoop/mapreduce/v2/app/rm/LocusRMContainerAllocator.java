package org.apache.hadoop.mapreduce.v2.app.rm;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.impl.JobImpl;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.AMPreemptionPolicy;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.yarn.util.RackResolver;
import org.locus.mapreduce.am.LocalityTier;
import org.locus.mapreduce.am.LocusAmConfigKeys;
import org.locus.mapreduce.am.StrictLocalityScheduler;
import org.locus.mapreduce.am.TaskPlacement;
import org.locus.mapreduce.am.TierHosts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MapReduce AM's container allocator with a job's {@link TaskPlacement}: reducer {@code p}
 * runs on the host the placement names for it, and where the placement says so, a map waits
 * for a host its split names. The mechanism for every Locus feature that places tasks (KAT's
 * owner-aligned reducers today).
 *
 * <p>Five changes to {@link RMContainerAllocator}, all on the allocation path and using the
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
 *       names H. Where the placement names {@linkplain TaskPlacement#mapTiers tiers} for maps
 *       on H, that list is reordered before the stock code assigns the container, by the rank
 *       of each map's tier on H (node-local, no tier, being 0), so with BoostDFS's and
 *       energy-efficient HDFS's tiers the levels are superlocal, node-local, backup-local,
 *       rack-local, any. Map attempts given a container at a tier are counted in the tier's
 *       counter of {@link LocalityTier#COUNTER_GROUP} (at assignment, as the stock
 *       {@code DATA_LOCAL_MAPS}: an attempt killed before it starts counts too).</li>
 * </ol>
 *
 * <p>Two private fields of the stock AM are reached by reflection: the allocator's host lists
 * ({@value #MAPS_BY_HOST_FIELD}) and the job's own counters ({@value #JOB_COUNTERS_FIELD} of
 * {@link JobImpl}, where the stock {@code JobCounterUpdateEvent} adds its counts; that event
 * takes only enum counters, a tier counter is named by data). The AM refuses to start, naming
 * the field, if a Hadoop version lacks one.
 */
public class LocusRMContainerAllocator extends RMContainerAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(LocusRMContainerAllocator.class);

  /** How many off-host containers may be refused, per task of the job. */
  static final int REFUSALS_PER_TASK = 5;

  /** The stock allocator's host to pending-maps lists ({@code ScheduledRequests}). */
  static final String MAPS_BY_HOST_FIELD = "mapsHostMapping";

  /** The stock job's counters that are no task's ({@link JobImpl}). */
  static final String JOB_COUNTERS_FIELD = "jobCounters";

  private TaskPlacement placement;
  private int refusalsLeft;
  private int refused;
  private Map<String, LinkedList<TaskAttemptId>> mapsByHost;
  /** Map attempts seen launched, so each is counted once. */
  private final Set<TaskAttemptId> launchedMaps = new HashSet<>();
  /** Map attempts launched per tier name so far, for the log. */
  private final Map<String, Long> launchedByTier = new TreeMap<>();
  /**
   * The job's counters, where the tier counters go. Written on this thread while the job's
   * dispatcher writes its own counters and clients read them merged: Hadoop's {@code Counters}
   * synchronize their lookups and counts and keep groups in concurrent maps.
   */
  private Counters jobCounters;

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

  /** The job's own counters, from the stock {@link JobImpl}'s private field. */
  static Counters stockJobCounters(Job job) {
    try {
      Field field = JobImpl.class.getDeclaredField(JOB_COUNTERS_FIELD);
      field.setAccessible(true);
      return (Counters) field.get(job);
    } catch (ReflectiveOperationException | ClassCastException | IllegalArgumentException e) {
      throw new IllegalStateException("this Hadoop's JobImpl has no field " + JOB_COUNTERS_FIELD
          + " (org.apache.hadoop.mapreduce.Counters), or the AM's job (" + job + ") is no"
          + " JobImpl; the Locus AM is built for Hadoop 3.5.0", e);
    }
  }

  /**
   * Finds the job's counters before the thread that counts starts: the stock start has just set
   * the job, and a missing field stops the AM at start.
   */
  @Override
  protected void startAllocatorThread() {
    jobCounters = stockJobCounters(getJob());
    super.startAllocatorThread();
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
    orderMapsByTier(allocated);
    return response;
  }

  /** Counts the map attempts assigned since the last heartbeat at one of their tiers. */
  @Override
  protected synchronized void heartbeat() throws Exception {
    super.heartbeat();
    Map<TaskAttemptId, Container> running = getAssignedRequests().maps;
    launchedMaps.retainAll(running.keySet());
    Map<String, Long> launched = new TreeMap<>();
    for (Map.Entry<TaskAttemptId, Container> e : running.entrySet()) {
      if (launchedMaps.add(e.getKey())) {
        LocalityTier tier = tierOn(placement.mapTiers(e.getKey().getTaskId().getId()),
            e.getValue().getNodeId().getHost());
        if (tier != null) {
          tier.counterIn(jobCounters).increment(1);
          launched.merge(tier.name(), 1L, Long::sum);
        }
      }
    }
    if (!launched.isEmpty()) {
      launched.forEach((tier, maps) -> launchedByTier.merge(tier, maps, Long::sum));
      LOG.info("Map(s) launched at a tier: {} ({} in all)", launched, launchedByTier);
    }
  }

  /**
   * Before the stock assignment takes, for a map container on host H, the first pending map
   * listed for H: orders that list by the rank of each map's tier on H.
   */
  private void orderMapsByTier(List<Container> allocated) {
    for (Container container : allocated) {
      if (PRIORITY_MAP.equals(container.getPriority())) {
        String host = container.getNodeId().getHost();
        LinkedList<TaskAttemptId> waiting = mapsByHost.get(host);
        if (waiting != null) {
          byTier(waiting, host, placement::mapTiers);
        }
      }
    }
  }

  /**
   * Orders the attempts by the rank of their map's tier on {@code host}, a map at no tier there
   * (node-local) being 0; attempts of one rank keep their order.
   */
  static void byTier(LinkedList<TaskAttemptId> attempts, String host,
      IntFunction<List<TierHosts>> tiersOf) {
    record Ranked(TaskAttemptId attempt, int rank) {
    }
    List<Ranked> ranked = new ArrayList<>(attempts.size());
    for (TaskAttemptId id : attempts) {
      LocalityTier tier = tierOn(tiersOf.apply(id.getTaskId().getId()), host);
      ranked.add(new Ranked(id, tier == null ? 0 : tier.rank()));
    }
    ranked.sort(Comparator.comparingInt(Ranked::rank));
    attempts.clear();
    ranked.forEach(r -> attempts.add(r.attempt()));
  }

  /**
   * @return the map's tier on {@code host}: the lowest-ranked of its tiers naming the host, the
   *     first listed among equals; null for none
   */
  static LocalityTier tierOn(List<TierHosts> tiers, String host) {
    LocalityTier best = null;
    for (TierHosts t : tiers) {
      if ((best == null || t.tier().rank() < best.rank()) && t.hosts().contains(host)) {
        best = t.tier();
      }
    }
    return best;
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
