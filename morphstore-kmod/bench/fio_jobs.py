#!/usr/bin/env python3
"""fio_jobs.py WORKLOAD STREAMS DIR SECONDS - print the fio job file of one
bench/vm-fio measurement: STREAMS concurrent jobs over the data set in DIR
for SECONDS.

The data set (bench/vm-fio-guest lays it out) is 16 video files v00..v15
and 16 database files db00..db15.  At every load level each file belongs
to exactly one stream: stream j of N takes files j, j+N, j+2N, ... so the
same bytes are read at every level and no two streams share a file (no
stream reads what another has just brought into the page cache).

  video  seed 001 section 3.6.1, a video server: each stream plays its
         videos one after another (one open at a time), sequential 1 MiB
         reads, buffered, as a server's sendfile loop would.
  mongo  a MongoDB-like store: each stream keeps all its files open and
         issues random reads and writes, 70 % reads, sizes 4, 8, 16, 32
         and 64 KiB in equal parts; writes are O_DSYNC (a database makes
         its writes durable), so they reach the disks within the run.

Both: psync, no fadvise hint (the kernel module does not pass one on to
its lower files, so md gets none either), time_based, fio's default
random seed so every layout sees the same offsets."""
import sys

FILES = 16
WORKLOADS = {
    "video": ("v", """rw=read
bs=1M
openfiles=1
file_service_type=sequential
"""),
    "mongo": ("db", """rw=randrw
rwmixread=70
bssplit=4k/20:8k/20:16k/20:32k/20:64k/20
sync=dsync
file_service_type=random
"""),
}


def stream_files(stream, streams):
    """The file numbers stream (0-based) of streams reads: stream, stream+streams, ..."""
    return list(range(stream, FILES, streams))


def job_file(workload, streams, directory, seconds):
    if workload not in WORKLOADS:
        raise ValueError("workload %s: expected one of %s" % (workload, ", ".join(WORKLOADS)))
    if not 1 <= streams <= FILES:
        raise ValueError("streams %d: expected 1..%d (one file per stream at least)" % (streams, FILES))
    prefix, options = WORKLOADS[workload]
    text = ["; bench/vm-fio: %s, %d stream(s), %d s" % (workload, streams, seconds),
            "[global]", "ioengine=psync", "fadvise_hint=0", "time_based=1",
            "runtime=%d" % seconds, options.rstrip("\n")]
    for s in range(streams):
        names = ":".join("%s/%s%02d" % (directory, prefix, f) for f in stream_files(s, streams))
        text += ["[s%d]" % s, "filename=%s" % names]
    return "\n".join(text) + "\n"


def main(argv):
    if len(argv) != 5 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    try:
        sys.stdout.write(job_file(argv[1], int(argv[2]), argv[3], int(argv[4])))
    except ValueError as e:
        print("fio_jobs.py: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
