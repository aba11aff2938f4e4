package org.locus.mapreduce.am;

import java.util.Collection;

/**
 * One of a map's locality tiers: the hosts where the map is at {@code tier}.
 *
 * @param tier the tier
 * @param hosts the hosts, normally among those the map's split names (a container on another
 *     host is counted at the tier but never reordered for, since the stock allocator lists a
 *     map only for its split's hosts)
 */
public record TierHosts(LocalityTier tier, Collection<String> hosts) {
}
