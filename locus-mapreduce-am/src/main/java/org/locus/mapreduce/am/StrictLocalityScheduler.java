package org.locus.mapreduce.am;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterResponse;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ApplicationMaster's line to the ResourceManager, with the asks of one priority held to
 * the hosts they name, and held back from busy hosts, while a condition holds.
 *
 * <p>The MapReduce AM sends, per priority, one ask per host, per rack and one off-switch
 * ({@code *}) ask, all "relaxable": YARN may place a container on another host of the rack or
 * anywhere once the named host has been passed over often enough. While {@code strict} says
 * so, this line
 * <ul>
 *   <li>sends the rack and off-switch asks of {@code priority} with relaxLocality off, which
 *       YARN's schedulers read as "only on the hosts asked for by name", and</li>
 *   <li>sends the ask for a host that {@code held} names with no container, so YARN places
 *       nothing of the priority there yet; the ask goes out with its real count as soon as
 *       the host is no longer held.</li>
 * </ul>
 * The AM sends only the asks it changed, so this line remembers what the ResourceManager last
 * got for each ask of the priority and sends again every ask whose form on the wire changed
 * (a host released, the condition ended), even when the AM did not touch it.
 *
 * <p>Only what goes over the wire changes; the AM's own ask records are never touched (they
 * are copied before they are shaped).
 */
public final class StrictLocalityScheduler implements ApplicationMasterProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(StrictLocalityScheduler.class);

  private final ApplicationMasterProtocol resourceManager;
  private final Priority priority;
  private final BooleanSupplier strict;
  private final Predicate<String> held;
  /** The AM's own ask records of the priority, by resource name and capability. */
  private final Map<String, ResourceRequest> records = new LinkedHashMap<>();
  /** What the ResourceManager last got for each of those asks. */
  private final Map<String, ResourceRequest> sent = new HashMap<>();
  private boolean sentStrict;

  public StrictLocalityScheduler(ApplicationMasterProtocol resourceManager, Priority priority,
      BooleanSupplier strict, Predicate<String> held) {
    this.resourceManager = resourceManager;
    this.priority = priority;
    this.strict = strict;
    this.held = held;
  }

  @Override
  public AllocateResponse allocate(AllocateRequest request) throws YarnException, IOException {
    boolean strictNow = strict.getAsBoolean();
    List<ResourceRequest> asks = new ArrayList<>();
    Set<String> changedByTheAm = new HashSet<>();
    for (ResourceRequest ask : request.getAskList()) {
      if (priority.equals(ask.getPriority())) {
        records.put(keyOf(ask), ask);
        changedByTheAm.add(keyOf(ask));
      } else {
        asks.add(ask);
      }
    }
    Iterator<Map.Entry<String, ResourceRequest>> it = records.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, ResourceRequest> e = it.next();
      ResourceRequest wire = onTheWire(e.getValue(), strictNow);
      ResourceRequest last = sent.get(e.getKey());
      if (changedByTheAm.contains(e.getKey()) || last == null || differs(wire, last)) {
        asks.add(wire);
        sent.put(e.getKey(), wire);
        if (last != null && last.getNumContainers() == 0 && wire.getNumContainers() > 0
            && !changedByTheAm.contains(e.getKey())) {
          LOG.info("Asks of priority {} on {} released: the host is no longer held",
              priority.getPriority(), wire.getResourceName());
        }
      }
      if (e.getValue().getNumContainers() == 0 && wire.getNumContainers() == 0) {
        it.remove();
        sent.remove(e.getKey());
      }
    }
    if (!records.isEmpty() || !changedByTheAm.isEmpty()) {
      if (strictNow != sentStrict) {
        LOG.info(strictNow ? "Asks of priority {} held to the hosts they name"
            : "Asks of priority {} relaxable again", priority.getPriority());
      }
      sentStrict = strictNow;
    }
    request.setAskList(asks);
    return resourceManager.allocate(request);
  }

  /** Whether the asks of this priority last went to the ResourceManager strict. */
  public boolean sentStrict() {
    return sentStrict;
  }

  @Override
  public RegisterApplicationMasterResponse registerApplicationMaster(
      RegisterApplicationMasterRequest request) throws YarnException, IOException {
    return resourceManager.registerApplicationMaster(request);
  }

  @Override
  public FinishApplicationMasterResponse finishApplicationMaster(
      FinishApplicationMasterRequest request) throws YarnException, IOException {
    return resourceManager.finishApplicationMaster(request);
  }

  /** The ask as the ResourceManager gets it: a shaped copy, the AM's record left alone. */
  private ResourceRequest onTheWire(ResourceRequest record, boolean strictNow) {
    ResourceRequest copy = ResourceRequest.clone(record);
    String name = record.getResourceName();
    if (isWide(name)) {
      copy.setRelaxLocality(!strictNow);
    } else if (strictNow && held.test(name)) {
      copy.setNumContainers(0);
    }
    return copy;
  }

  /** A rack ("/rack") or off-switch ("*") ask rather than a host's. */
  private static boolean isWide(String resourceName) {
    return ResourceRequest.isAnyLocation(resourceName) || resourceName.startsWith("/");
  }

  private static boolean differs(ResourceRequest a, ResourceRequest b) {
    return a.getNumContainers() != b.getNumContainers()
        || a.getRelaxLocality() != b.getRelaxLocality();
  }

  private static String keyOf(ResourceRequest ask) {
    return ask.getResourceName() + " " + ask.getCapability();
  }
}
