#!/usr/bin/env python3
"""taskcpu.py snapshot > FILE | taskcpu.py top BEFORE AFTER [N]

Who used the CPU during a run: 'snapshot' prints every thread's user and
system clock ticks (/proc/PID/task/TID/stat, fields 14 and 15) with its
name, its own process left out; 'top' prints the N threads (default 8) that used the most ticks
between two snapshots, system ticks first, as 'sys user name tid'.
"""
import os, sys


def snapshot():
    me = str(os.getpid())
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or pid == me:  # not this snapshot's own work
            continue
        try:
            tids = os.listdir("/proc/%s/task" % pid)
        except OSError:
            continue
        for tid in tids:
            try:
                stat = open("/proc/%s/task/%s/stat" % (pid, tid)).read()
            except OSError:
                continue  # the thread ended meanwhile
            # the name is in parentheses and may hold spaces
            name = stat[stat.index("(") + 1:stat.rindex(")")].replace(" ", "_")
            fields = stat[stat.rindex(")") + 2:].split()
            print(tid, fields[11], fields[12], name)


def load(path):
    ticks = {}
    for line in open(path):
        tid, user, system, name = line.split()
        ticks[(tid, name)] = (int(user), int(system))
    return ticks


def top(before, after, n):
    old = load(before)
    used = []
    for key, (user, system) in load(after).items():
        u0, s0 = old.get(key, (0, 0))
        if user - u0 or system - s0:
            used.append((system - s0, user - u0, key[1], key[0]))
    for system, user, name, tid in sorted(used, reverse=True)[:n]:
        print(system, user, name, tid)


if len(sys.argv) == 2 and sys.argv[1] == "snapshot":
    snapshot()
elif len(sys.argv) in (4, 5) and sys.argv[1] == "top":
    top(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) == 5 else 8)
elif len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
    print(__doc__)
else:
    sys.stderr.write(__doc__)
    sys.exit(2)
