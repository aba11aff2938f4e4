# SPDX-License-Identifier: Apache-2.0
"""A page-cache budget for the processes of one bench run: a memory cgroup whose limit
follows their anonymous memory plus BUDGET bytes, so that what they may keep cached of the
files they read and write (the emulated disk's data; files already cached before the run,
such as Hadoop's jars, stay charged where they were first read) is about BUDGET, while their
own heap is never squeezed.  It emulates a node whose memory is small beside the data it
processes (seed 002 ran 20 GB inputs on a 4 GB machine): there, data written a moment ago is
read back from the disk, not from the cache.

cgroup v1 (memory controller): memory.limit_in_bytes, raised and lowered every 0.1 s, with
the OOM killer off for the group (a task that meets the limit before it is raised waits);
cgroup v2: memory.high, which only reclaims and throttles.  At the limit the kernel may
refuse a fork outright (ENOMEM) instead of waiting: seen once in a 77-minute bench, when the
zone hook's monitor could not start zonectl for one tick.  Root only."""
import os
import subprocess
import threading

OWN_MOUNTS = "/run/locus/cgroup"  # where the netns cluster mounts hierarchies too (NodeCgroup)
STEP = 4 << 20
TICK = 0.1  # seconds between two settings of the limit


def _hierarchies():
    """(version, mount point) of each cgroup hierarchy with the memory controller here."""
    found = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, right = line.split(" - ", 1)
            fstype, _, options = right.split()[:3]
            point = left.split()[4].replace("\\040", " ")
            if fstype == "cgroup" and "memory" in options.split(","):
                found.append((1, point))
            elif fstype == "cgroup2":
                try:
                    with open(os.path.join(point, "cgroup.controllers")) as c:
                        if "memory" in c.read().split():
                            found.append((2, point))
                except OSError:
                    pass
    return found


def _own_path(version):
    """This process's group in the hierarchy of that version (/proc/self/cgroup)."""
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            if (version == 1 and "memory" in controllers.split(",")) or \
                    (version == 2 and controllers == ""):
                return path
    return "/"


def _memory_hierarchy():
    found = _hierarchies()
    if not found:
        # a chroot that bind-mounts /sys without its submounts sees no cgroup hierarchy:
        # mount the memory one (the host's own, if it has it) as the netns cluster does
        point = os.path.join(OWN_MOUNTS, "memory")
        os.makedirs(point, exist_ok=True)
        if subprocess.run(["mountpoint", "-q", point]).returncode and subprocess.run(
                ["mount", "-t", "cgroup", "-o", "memory", "locus-memory", point],
                capture_output=True).returncode:
            raise SystemExit("bench: --cache needs the memory cgroup controller; this host"
                             " mounts none and 'mount -t cgroup -o memory' at %s failed" % point)
        found = _hierarchies()
        if not found:
            raise SystemExit("bench: --cache: mounted %s but see no memory hierarchy" % point)
    version, point = next((h for h in found if h[0] == 1), found[0])
    if version == 2:
        # v2 lets a group hand controllers to children only while it holds no process:
        # the group goes under the root, which is exempt
        return True, point
    parent = point + _own_path(version)
    return False, parent if os.path.isdir(parent) else point


class CacheBudget:
    """A memory cgroup in which a run's processes may cache about budget bytes of new data.
    Start a process in it with preexec_fn=budget.enter; close() when the process is done."""

    def __init__(self, budget, name="locus-zone-bench"):
        if budget < 16 << 20:
            raise SystemExit("bench: --cache must be at least 16M, got %d bytes" % budget)
        self.budget = budget
        self.v2, parent = _memory_hierarchy()
        if self.v2 and not os.path.exists(os.path.join(parent, "memory.high")):
            with open(os.path.join(parent, "cgroup.subtree_control"), "w") as f:
                f.write("+memory")
        self.dir = os.path.join(parent, "%s.%d" % (name, os.getpid()))
        os.makedirs(self.dir, exist_ok=True)
        if not self.v2:
            self._write("memory.oom_control", "1")
        self._write(self._knob(), str(budget))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()

    def enter(self):
        """preexec_fn: puts the calling (child) process into the group."""
        with open(os.path.join(self.dir, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))

    def _write(self, knob, value):
        with open(os.path.join(self.dir, knob), "w") as f:
            f.write(value)

    def _stat(self):
        with open(os.path.join(self.dir, "memory.stat")) as f:
            return {k: int(v) for k, v in (line.split() for line in f)}

    def _follow(self):
        while not self._stop.wait(TICK):
            try:
                stat = self._stat()
                if self.v2:
                    anon, cache = stat.get("anon", 0), stat.get("file", 0)
                else:
                    anon, cache = stat.get("rss", 0), stat.get("cache", 0)
                limit = (anon + self.budget + STEP - 1) // STEP * STEP
                if not self.v2 and self._under_oom():
                    # a task waits at the limit with nothing left to reclaim (dirty pages):
                    # give it room rather than leave it waiting for its own write-back
                    limit = max(limit, anon + cache + self.budget)
                self._write(self._knob(), str(limit))
            except OSError:
                # v1 refuses (EBUSY) a limit below usage it cannot reclaim at once (dirty
                # pages under writeback): the next tick tries again
                pass

    def _knob(self):
        return "memory.high" if self.v2 else "memory.limit_in_bytes"

    def _under_oom(self):
        with open(os.path.join(self.dir, "memory.oom_control")) as f:
            return "under_oom 1" in f.read()

    def close(self):
        self._stop.set()
        self._thread.join()
        try:
            os.rmdir(self.dir)
        except OSError:
            pass
