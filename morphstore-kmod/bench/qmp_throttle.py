#!/usr/bin/env python3
"""qmp_throttle.py SOCKET BPS IOPS DRIVE... - set the I/O throttle of each
DRIVE (a -drive id) of a running qemu over its QMP socket: BPS bytes/s and
IOPS requests/s, reads and writes together; 0 0 lifts the throttle.
bench/vm-fio lifts it while the guest lays out a data set and sets it back
before every measurement."""
import json
import socket
import sys


def command(stream, execute, arguments=None):
    """Send one QMP command; skip events; return its result or exit naming the error."""
    msg = {"execute": execute}
    if arguments is not None:
        msg["arguments"] = arguments
    stream.write(json.dumps(msg) + "\n")
    stream.flush()
    while True:
        line = stream.readline()
        if not line:
            sys.exit("qmp_throttle.py: qemu closed the QMP socket during %s" % execute)
        reply = json.loads(line)
        if "error" in reply:
            sys.exit("qmp_throttle.py: %s failed: %s" % (execute, reply["error"].get("desc")))
        if "return" in reply:
            return reply["return"]


def main(argv):
    if len(argv) < 5 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    path, bps, iops, drives = argv[1], int(argv[2]), int(argv[3]), argv[4:]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError as e:
        sys.exit("qmp_throttle.py: cannot connect to qemu's QMP socket %s: %s" % (path, e.strerror))
    stream = sock.makefile("rw")
    stream.readline()  # the greeting
    command(stream, "qmp_capabilities")
    for drive in drives:
        command(stream, "block_set_io_throttle", {
            "device": drive, "bps": bps, "bps_rd": 0, "bps_wr": 0,
            "iops": iops, "iops_rd": 0, "iops_wr": 0})
    sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
