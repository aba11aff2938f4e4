package org.locus.mapreduce.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterResponse;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceBlacklistRequest;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.junit.jupiter.api.Test;

/**
 * What goes over the wire to the ResourceManager: the rack and off-switch asks of the held
 * priority go strict while the condition holds and relaxable again after it, a held host's ask
 * goes with no container until it is released, and nothing else changes, including the AM's
 * own ask records.
 */
class StrictLocalitySchedulerTest {
  private static final Priority REDUCE = Priority.newInstance(10);
  private static final Priority MAP = Priority.newInstance(20);
  private static final Resource TASK = Resource.newInstance(512, 1);

  /** The ResourceManager's side of the line, as far as this test needs: what it was sent. */
  private static final class SentAsks implements ApplicationMasterProtocol {
    final List<List<ResourceRequest>> calls = new ArrayList<>();

    @Override
    public AllocateResponse allocate(AllocateRequest request) {
      List<ResourceRequest> copies = new ArrayList<>();
      for (ResourceRequest ask : request.getAskList()) {
        copies.add(ResourceRequest.clone(ask));
      }
      calls.add(copies);
      return AllocateResponse.newInstance(calls.size(), List.of(), List.of(), List.of(),
          TASK, null, 4, null, List.of());
    }

    @Override
    public RegisterApplicationMasterResponse registerApplicationMaster(
        RegisterApplicationMasterRequest request) {
      throw new UnsupportedOperationException("not used here");
    }

    @Override
    public FinishApplicationMasterResponse finishApplicationMaster(
        FinishApplicationMasterRequest request) {
      throw new UnsupportedOperationException("not used here");
    }

    /** Resource name to container count, for one call. */
    Map<String, Integer> counts(int call) {
      Map<String, Integer> out = new TreeMap<>();
      for (ResourceRequest ask : calls.get(call)) {
        out.put(ask.getResourceName(), ask.getNumContainers());
      }
      return out;
    }

    /** Resource name (with priority) to relaxLocality, for one call. */
    Map<String, Boolean> relax(int call) {
      Map<String, Boolean> out = new TreeMap<>();
      for (ResourceRequest ask : calls.get(call)) {
        out.put(ask.getPriority().getPriority() + ":" + ask.getResourceName(),
            ask.getRelaxLocality());
      }
      return out;
    }
  }

  private static ResourceRequest ask(Priority priority, String name, int containers) {
    return ResourceRequest.newInstance(priority, name, TASK, containers);
  }

  private static AllocateRequest request(ResourceRequest... asks) {
    return AllocateRequest.newInstance(0, 0f, List.of(asks), List.of(),
        ResourceBlacklistRequest.newInstance(List.of(), List.of()));
  }

  @Test
  void whileStrictOnlyTheHeldPrioritysRackAndAnyAsksStopRelaxing() throws Exception {
    SentAsks rm = new SentAsks();
    StrictLocalityScheduler line = new StrictLocalityScheduler(rm, REDUCE, () -> true, host -> false);
    ResourceRequest reduceHost = ask(REDUCE, "10.77.0.2", 1);
    ResourceRequest reduceRack = ask(REDUCE, "/default-rack", 2);
    ResourceRequest reduceAny = ask(REDUCE, ResourceRequest.ANY, 2);
    ResourceRequest mapRack = ask(MAP, "/default-rack", 3);
    ResourceRequest mapAny = ask(MAP, ResourceRequest.ANY, 3);

    line.allocate(request(reduceHost, reduceRack, reduceAny, mapRack, mapAny));

    assertEquals(Map.of("10:10.77.0.2", true, "10:/default-rack", false, "10:*", false,
        "20:/default-rack", true, "20:*", true), rm.relax(0));
    assertTrue(line.sentStrict());
    assertTrue(reduceRack.getRelaxLocality() && reduceAny.getRelaxLocality(),
        "the AM's own ask records keep their flag");
    assertEquals(2, rm.calls.get(0).stream()
        .filter(a -> a.getResourceName().equals(ResourceRequest.ANY)
            && a.getPriority().equals(REDUCE)).findFirst().orElseThrow().getNumContainers(),
        "the count goes over unchanged");
  }

  @Test
  void whenTheConditionEndsTheLastWideAsksAreSentAgainRelaxable() throws Exception {
    SentAsks rm = new SentAsks();
    AtomicBoolean mapsRunning = new AtomicBoolean(true);
    StrictLocalityScheduler line = new StrictLocalityScheduler(rm, REDUCE, mapsRunning::get,
        host -> false);
    ResourceRequest reduceRack = ask(REDUCE, "/default-rack", 2);
    ResourceRequest reduceAny = ask(REDUCE, ResourceRequest.ANY, 2);
    line.allocate(request(ask(REDUCE, "10.77.0.2", 1), ask(REDUCE, "10.77.0.3", 1), reduceRack,
        reduceAny));
    line.allocate(request());
    assertTrue(rm.relax(1).isEmpty(), "nothing changed, nothing re-sent while strict");

    // One reducer got its host; the AM lowers its live records and sends only the host ask.
    reduceRack.setNumContainers(1);
    reduceAny.setNumContainers(1);
    mapsRunning.set(false);
    line.allocate(request());

    assertEquals(Map.of("10:/default-rack", true, "10:*", true), rm.relax(2));
    assertTrue(rm.calls.get(2).stream().allMatch(a -> a.getNumContainers() == 1),
        "re-sent with the live count");
    assertFalse(line.sentStrict());
    line.allocate(request());
    assertTrue(rm.relax(3).isEmpty(), "re-sent once, not on every heartbeat");
  }

  @Test
  void aHeldHostGetsNoContainerUntilReleasedThenItsRealCountWithoutTheAmResending()
      throws Exception {
    SentAsks rm = new SentAsks();
    Set<String> busy = new HashSet<>(Set.of("10.77.0.2"));
    StrictLocalityScheduler line = new StrictLocalityScheduler(rm, REDUCE, () -> true,
        busy::contains);
    ResourceRequest busyHost = ask(REDUCE, "10.77.0.2", 1);
    line.allocate(request(busyHost, ask(REDUCE, "10.77.0.3", 1),
        ask(REDUCE, "/default-rack", 2), ask(REDUCE, ResourceRequest.ANY, 2)));
    assertEquals(Map.of("10.77.0.2", 0, "10.77.0.3", 1, "/default-rack", 2, "*", 2),
        rm.counts(0));
    assertEquals(1, busyHost.getNumContainers(), "the AM's record keeps its count");

    line.allocate(request());
    assertTrue(rm.calls.get(1).isEmpty(), "still held: nothing to send");

    busy.clear();
    line.allocate(request());
    assertEquals(Map.of("10.77.0.2", 1), rm.counts(2));
  }

  @Test
  void holdingEndsWithTheStrictSpell() throws Exception {
    SentAsks rm = new SentAsks();
    AtomicBoolean strict = new AtomicBoolean(true);
    StrictLocalityScheduler line = new StrictLocalityScheduler(rm, REDUCE, strict::get,
        host -> true);
    line.allocate(request(ask(REDUCE, "10.77.0.2", 1), ask(REDUCE, ResourceRequest.ANY, 1)));
    assertEquals(Map.of("10.77.0.2", 0, "*", 1), rm.counts(0));
    strict.set(false);
    line.allocate(request());
    assertEquals(Map.of("10.77.0.2", 1, "*", 1), rm.counts(1));
    assertEquals(Map.of("10:10.77.0.2", true, "10:*", true), rm.relax(1));
  }

  @Test
  void neverStrictSendsEveryAskAsTheAmMadeIt() throws Exception {
    SentAsks rm = new SentAsks();
    StrictLocalityScheduler line = new StrictLocalityScheduler(rm, REDUCE, () -> false,
        host -> true);
    line.allocate(request(ask(REDUCE, "10.77.0.2", 1), ask(REDUCE, "/default-rack", 1),
        ask(REDUCE, ResourceRequest.ANY, 1)));
    assertEquals(Map.of("10:10.77.0.2", true, "10:/default-rack", true, "10:*", true),
        rm.relax(0));
  }
}
