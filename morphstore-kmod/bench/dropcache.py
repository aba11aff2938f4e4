#!/usr/bin/env python3
"""dropcache.py DIR... - drop the page cache of every regular file under the
DIRs (posix_fadvise DONTNEED), so the next reads reach the devices, without
dropping the whole machine's cache."""
import os, sys

if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
    print(__doc__)
    sys.exit(0 if len(sys.argv) > 1 else 2)
for root in sys.argv[1:]:
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            fd = os.open(path, os.O_RDONLY)
            os.fdatasync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
