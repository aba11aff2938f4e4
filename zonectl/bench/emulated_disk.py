# SPDX-License-Identifier: Apache-2.0
"""The emulated zoned HDD the measured benches run on: ext4 on a loop device
over a fresh zonedisk (zonedisk/zonedisk, SIMULATED HARDWARE), mounted.  Two
disk models (--disk-model): "bandwidth", the zone curve (bandwidth falls
linearly from the outer edge to half of it at the inner edge, seed 002 §3.2,
no seek cost), and "hdd", the HDD model of a named drive's datasheet
(zonedisk --drive: seek by head travel, rotation, read-ahead cache; docs/zone.md,
"An emulated HDD from a datasheet").  Shared by `zonectl/bench/measured` and
`zonectl/bench/hadoop`."""
import os
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ZONEDISK = os.path.join(os.path.dirname(HERE), "zonedisk", "zonedisk")
# the drive --disk-model hdd emulates: the one zonedisk's table holds (issue 48)
HDD_DRIVE = "ST4000NM0033"
DISK_MODELS = ("bandwidth", "hdd")


def add_disk_model_argument(ap):
    ap.add_argument("--disk-model", choices=DISK_MODELS, default="bandwidth",
                    help="bandwidth: the zone curve from --outer-mbps, no seek cost (default);"
                         " hdd: zonedisk --drive=%s, the modelled Seagate ES.3 (seek,"
                         " rotation, read-ahead; --outer-mbps is then unused)" % HDD_DRIVE)


def disk_model_label(args):
    """What the disk was, for a report: the model and its speed."""
    if args.disk_model == "hdd":
        return ("the emulated HDD (modelled Seagate ES.3 %s: seek, rotation, read-ahead"
                " cache; 175 MB/s outer, 83 MB/s inner)" % HDD_DRIVE)
    return ("the bandwidth-only zone curve: %g MB/s outer, %g MB/s inner, linear, no seek"
            " cost" % (args.outer_mbps, args.outer_mbps / 2))


def disk_model_flags(args):
    """The command-line flags that chose the disk, for a report's command line."""
    if args.disk_model == "hdd":
        return "--disk-model hdd"
    return "--outer-mbps %g" % args.outer_mbps


def sh(*args, check=True, capture=False, env=None):
    r = subprocess.run(args, text=True, env=env,
                       stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    if check and r.returncode:
        raise SystemExit("bench: %s failed (exit %d): %s" % (" ".join(args), r.returncode,
                                                            r.stderr.strip()))
    return r.stdout if capture else r.returncode


class Disk:
    """ext4 on a loop device over a fresh zonedisk, mounted."""

    def __init__(self, work, size, mbps, mkfs, dirty_bytes=0, drive=None):
        """mbps: the zone curve's outer bandwidth; drive: a zonedisk --drive name
        instead of the curve (the HDD model)."""
        self.work = work
        self.back = os.path.join(work, "back")
        self.fuse = os.path.join(work, "zd")
        self.mnt = os.path.join(work, "mnt")
        os.makedirs(self.fuse)
        os.makedirs(self.mnt)
        with open(self.back, "wb") as f:
            f.truncate(size)
        # formatted on the backing file: mkfs time is not the bench's
        sh("mke2fs", "-q", "-F", *mkfs.split(), "-E", "lazy_itable_init=0,lazy_journal_init=0",
           self.back)
        model = "--drive=" + drive if drive else "--outer-mbps=%g" % mbps
        self.zd = subprocess.Popen([ZONEDISK, "--backing=" + self.back, "--size=%d" % size,
                                    model, self.fuse, "-f"],
                                   stderr=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(os.path.join(self.fuse, "disk")):
                break
            time.sleep(0.05)
        self.loop = sh("losetup", "-f", "--show", "--direct-io=on",
                       os.path.join(self.fuse, "disk"), capture=True).strip()
        if dirty_bytes:
            self.limit_dirty(dirty_bytes)
        sh("mount", self.loop, self.mnt)

    def limit_dirty(self, nbytes):
        """At most nbytes of this disk's pages may be dirty (the loop device's bdi,
        strict_limit): writers wait for the disk as on a node whose page cache the job's
        data does not fit in, instead of the host's 24 GiB absorbing every write."""
        rdev = os.stat(self.loop).st_rdev
        bdi = "/sys/class/bdi/%d:%d" % (os.major(rdev), os.minor(rdev))
        for knob, value in (("strict_limit", "1"), ("max_bytes", str(nbytes))):
            path = os.path.join(bdi, knob)
            if not os.path.exists(path):
                raise SystemExit("bench: %s is missing: this kernel cannot limit one device's"
                                 " dirty pages (needs Linux 6.2 or later)" % path)
            with open(path, "w") as f:
                f.write(value)

    def stats(self):
        """zonedisk's counters: requests, bytes, busy seconds, read and write."""
        with open(os.path.join(self.fuse, "stats")) as f:
            return dict(line.split() for line in f)

    def close(self):
        sh("umount", self.mnt, check=False)
        sh("losetup", "-d", self.loop, check=False)
        # the loop device lets go of the file asynchronously: retry, bounded
        for _ in range(100):
            if sh("fusermount3", "-u", self.fuse, check=False) == 0:
                break
            time.sleep(0.1)
        else:
            sh("fusermount3", "-u", "-z", self.fuse, check=False)
        try:
            self.zd.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.zd.kill()
            self.zd.wait()
