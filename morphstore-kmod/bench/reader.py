#!/usr/bin/env python3
"""reader.py SECONDS FILE... - one thread per FILE reads it sequentially in
1 MiB requests, all starting together, for SECONDS; prints the total bytes
read and the elapsed time as "bytes seconds".  A file shorter than the run
is an error (re-reading it would be served from the page cache)."""
import os, sys, threading, time

def main():
    secs = float(sys.argv[1])
    files = sys.argv[2:]
    done = [0] * len(files)
    short = []
    start = threading.Barrier(len(files) + 1)
    deadline = [0.0]

    def run(i, path):
        fd = os.open(path, os.O_RDONLY)
        start.wait()
        while time.monotonic() < deadline[0]:
            n = len(os.read(fd, 1 << 20))
            if n == 0:
                short.append(path)
                break
            done[i] += n
        os.close(fd)

    threads = [threading.Thread(target=run, args=(i, f)) for i, f in enumerate(files)]
    for t in threads:
        t.start()
    t0 = time.monotonic()
    deadline[0] = t0 + secs
    start.wait()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    if short:
        sys.exit("reader.py: %s ended before %.1f s; use larger files" % (short[0], secs))
    print(sum(done), "%.3f" % elapsed)

if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 else 2)
    main()
