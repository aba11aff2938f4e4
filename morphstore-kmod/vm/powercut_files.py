#!/usr/bin/env python3
"""powercut_files.py - the files a MorphStore power-cut round writes, and
their check after the reboot (vm/powercut-guest runs it in the VM).

  powercut_files.py write FRONT MNT SEED   set up, fsync a known set, then
                                           keep writing until the power goes
  powercut_files.py check FRONT MNT EXPECT check what the cut left
  powercut_files.py repaired FRONT MNT     every file has its copies, none stale

Everything a writer knows to be durable (fsync returned) it prints on the
console as one line "PCUT <kind> FRONT ...", which the host keeps and hands
back to the check after the reboot (EXPECT: those lines, and "seed SEED").
A line not printed before the cut only makes the check weaker, never wrong.

Files under MNT/r (every block of a versioned file is self-describing: a
header naming file, version, block index and block count, then bytes drawn
from a generator seeded by the same four, so a torn or foreign block is
recognised wherever it lands):
  s<i>   written once, fsync'd, closed: "PCUT sum" prints its md5.  s0
         and s1 keep one copy, so only their own fsync makes them durable
         (a copy's commit fsyncs the master too); s2..s5 get 1..3 copies,
         set before the write or after it, changed again while the others
         are written.  Must be byte-identical.
  rw     64 blocks (2 copies) rewritten in place, version after version,
         fsync'd every third version ("PCUT rw": durable version).  Every
         block must be valid and of a version at least the durable one.
  log    512-byte records appended (3 copies), fsync'd every 16 ("PCUT
         log": durable count).  Whole records in sequence, at least the
         durable count; past it a record may read as zeros (below).
  rep    replaced atomically: rep.tmp written (2 copies), fsync'd, renamed
         over rep; the directory fsync'd every second version ("PCUT rep").
         rep holds one whole version, at least the durable one.
  cw     16 blocks (2 copies) rewritten whole (O_TRUNC) and closed without
         fsync, version after version, half a second apart: its copies are
         marked fresh at each last close (morph_session_end), so only if the
         data is durable first do they match the master after the cut
         (verify-replicas).  Whole blocks of cw, or zeros, up to 16.
  n<j>   new files written and closed without fsync: each is absent or a
         prefix of what was written (old state: nothing; new: its bytes),
         where a block may read as zeros (below).
Zeros: bytes written and not fsync'd may read as zeros after the cut where
the lower file system's new size reached its journal before the data (ext4
does, for an append into a block that is already allocated); MorphStore
cannot promise more than its lower file systems.  Never the bytes of
another record, version or file.
"""
import hashlib
import os
import random
import struct
import sys
import time

BLOCK = 4096
HDR = struct.Struct('<8sIIII')  # magic, file tag, version, index, count
MAGIC = b'MSPCUT01'
RECORD = 512
TAGS = {'rw': 1, 'rep': 2, 'log': 3, 'cw': 4}


def say(line):
    os.write(1, (line + '\n').encode())


def payload(seed, tag, version, index, n):
    return random.Random(f'{seed}/{tag}/{version}/{index}').randbytes(n)


def block(seed, tag, version, index, count):
    head = HDR.pack(MAGIC, tag, version, index, count)
    return head + payload(seed, tag, version, index, BLOCK - HDR.size)


def parse_block(seed, data):
    """(tag, version, index, count) of a valid block, else None"""
    if len(data) != BLOCK:
        return None
    magic, tag, version, index, count = HDR.unpack_from(data)
    if magic != MAGIC or data[HDR.size:] != payload(seed, tag, version, index,
                                                    BLOCK - HDR.size):
        return None
    return tag, version, index, count


def record(seed, seq):
    head = struct.pack('<8sI', MAGIC, seq)
    return head + payload(seed, TAGS['log'], 0, seq, RECORD - len(head))


def rep_blocks(version):
    return 8 + version * 7 % 72  # 32 KiB .. 316 KiB


def new_file(seed, j):
    return random.Random(f'{seed}/new/{j}').randbytes(65536 + j * 37 % 7 * 65536)


def set_copies(path, n):
    try:
        os.setxattr(path, 'user.morphstore.replicas', str(n).encode())
    except OSError as e:
        say(f'PCUT note setxattr {path} {n}: {e}')


def write_all(fd, data, off=0):
    view = memoryview(data)
    while view:
        n = os.pwrite(fd, view, off)
        view, off = view[n:], off + n


# ---- write ----

def fsynced_set(front, d, rng):
    for i in range(6):
        path = f'{d}/s{i}'
        data = rng.randbytes(rng.randint(1, 1536 * 1024))
        fd = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o644)
        copies = rng.randint(1, 3) if i >= 2 else 0
        before = rng.random() < 0.5
        if copies and before:
            set_copies(path, copies)
        write_all(fd, data)
        os.fsync(fd)
        os.close(fd)
        if copies and not before:
            set_copies(path, copies)
        say(f'PCUT sum {front} r/s{i} {hashlib.md5(data).hexdigest()}')


def rewriter(front, d, seed):
    path = f'{d}/rw'
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o644)
    set_copies(path, 2)
    v = 0
    while True:
        v += 1
        for i in range(64):
            write_all(fd, block(seed, TAGS['rw'], v, i, 64), i * BLOCK)
        if v % 3 == 1:
            os.fsync(fd)
            say(f'PCUT rw {front} {v}')


def appender(front, d, seed):
    path = f'{d}/log'
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o644)
    set_copies(path, 3)
    seq = 0
    while seq < 8192:  # 4 MiB: the lowers are small
        write_all(fd, record(seed, seq))
        seq += 1
        if seq % 16 == 0:
            os.fsync(fd)
            say(f'PCUT log {front} {seq}')


def replacer(front, d, seed):
    dfd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
    v = 0
    while True:
        v += 1
        tmp = f'{d}/rep.tmp'
        fd = os.open(tmp, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o644)
        set_copies(tmp, 2)
        n = rep_blocks(v)
        write_all(fd, b''.join(block(seed, TAGS['rep'], v, i, n) for i in range(n)))
        os.fsync(fd)
        os.close(fd)
        os.rename(tmp, f'{d}/rep')
        if v % 2 == 1:
            os.fsync(dfd)
            say(f'PCUT rep {front} {v}')


def closer(front, d, seed):
    path = f'{d}/cw'
    v = 0
    while True:
        v += 1
        fd = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o644)
        write_all(fd, b''.join(block(seed, TAGS['cw'], v, i, 16) for i in range(16)))
        os.close(fd)
        if v == 1:
            set_copies(path, 2)
        time.sleep(0.5)


def creator(front, d, seed):
    for j in range(48):
        with open(f'{d}/n{j}', 'wb') as f:
            f.write(new_file(seed, j))


def toggler(front, d, seed):
    rng = random.Random(f'{seed}/toggle')
    while True:
        set_copies(f'{d}/s{rng.randrange(2, 6)}', rng.randint(1, 3))
        time.sleep(0.05)


def write(front, mnt, seed):
    os.getxattr(mnt, 'user.morphstore.volume')  # a volume, not its mount point
    d = f'{mnt}/r'
    os.mkdir(d)
    fsynced_set(front, d, random.Random(f'{seed}/set'))
    # each writer its own process: the cut finds them all mid-way
    for worker in (rewriter, appender, replacer, closer, creator, toggler):
        if os.fork() == 0:
            try:
                worker(front, d, seed)
            except OSError as e:
                say(f'PCUT note {front} {worker.__name__}: {e}')
            os._exit(0)
    say(f'PCUT started {front}')


# ---- check ----

class Check:
    def __init__(self, front):
        self.front, self.passed, self.failed = front, 0, 0

    def __call__(self, ok, what, why=''):
        if ok:
            self.passed += 1
            print(f'ok   {self.front}: {what}')
        else:
            self.failed += 1
            print(f'FAIL {self.front}: {what}' + (f': {why}' if why else ''))


def read(path):
    try:
        with open(path, 'rb') as f:
            return f.read()
    except FileNotFoundError:
        return None


def check_rw(seed, data, durable):
    if data is None:
        return 'missing' if durable else ''
    # before its first fsync the file may hold any whole blocks of version 1
    if len(data) != 64 * BLOCK and (durable or len(data) % BLOCK or len(data) > 64 * BLOCK):
        return f'{len(data)} bytes, not {64 * BLOCK}'
    for i in range(len(data) // BLOCK):
        b = parse_block(seed, data[i * BLOCK:(i + 1) * BLOCK])
        if b is None or b[0] != TAGS['rw'] or b[2] != i or b[3] != 64:
            return f'block {i} is not a block {i} of any version'
        if b[1] < durable:
            return f'block {i} is of version {b[1]}, older than the fsync\'d {durable}'
    return ''


def check_log(seed, data, durable):
    if data is None:
        return 'missing' if durable else ''
    if len(data) % RECORD:
        return f'{len(data)} bytes: a torn record at the end'
    n = len(data) // RECORD
    for i in range(n):
        got = data[i * RECORD:(i + 1) * RECORD]
        if got != record(seed, i) and (i < durable or any(got)):
            return f'record {i} of {n} is not record {i}' + \
                (' (zeros)' if not any(got) else '')
    if n < durable:
        return f'{n} records, fewer than the fsync\'d {durable}'
    return ''


def check_cw(seed, data):
    if data is None:
        return ''
    if len(data) % BLOCK or len(data) > 16 * BLOCK:
        return f'{len(data)} bytes: not whole blocks, or more than 16'
    for i in range(len(data) // BLOCK):
        got = data[i * BLOCK:(i + 1) * BLOCK]
        b = parse_block(seed, got)
        if any(got) and (b is None or b[0] != TAGS['cw'] or b[2] != i or b[3] != 16):
            return f'block {i} is not a block {i} of any version, nor zeros'
    return ''


def check_rep(seed, data, durable):
    if data is None:
        return 'missing' if durable else ''
    if not data or len(data) % BLOCK:
        return f'{len(data)} bytes: not whole blocks'
    first = parse_block(seed, data[:BLOCK])
    if first is None or first[0] != TAGS['rep']:
        return 'block 0 is not a block of any version'
    v, n = first[1], first[3]
    if len(data) != n * BLOCK or n != rep_blocks(v):
        return f'version {v}: {len(data)} bytes, not {rep_blocks(v)} blocks'
    for i in range(n):
        if parse_block(seed, data[i * BLOCK:(i + 1) * BLOCK]) != (TAGS['rep'], v, i, n):
            return f'version {v} mixed: block {i} is not its block {i}'
    if v < durable:
        return f'version {v}, older than the durable {durable}'
    return ''


def check(front, mnt, expect_path):
    c = Check(front)
    seed, sums, durable = None, {}, {'rw': 0, 'log': 0, 'rep': 0}
    for line in open(expect_path):
        w = line.split()
        if w[:1] == ['seed']:
            seed = int(w[1])
        elif len(w) >= 4 and w[0] == 'PCUT' and w[2] == front:
            if w[1] == 'sum' and len(w) == 5:
                sums[w[3]] = w[4]
            elif w[1] in durable:
                durable[w[1]] = max(durable[w[1]], int(w[3]))
    c(seed is not None and len(sums) == 6, 'the host kept the fsync\'d set of the round',
      f'seed {seed}, {len(sums)} sums')
    bad = [p for p, s in sorted(sums.items())
           if hashlib.md5(read(f'{mnt}/{p}') or b'\0missing').hexdigest() != s]
    c(not bad, f'every fsync\'d file is byte-identical ({len(sums)} files)', ' '.join(bad))
    for kind, fn in (('rw', check_rw), ('log', check_log), ('rep', check_rep)):
        why = fn(seed, read(f'{mnt}/r/{kind}'), durable[kind])
        c(not why, f'{kind}: old or consistent new state, at least the fsync\'d '
          f'{durable[kind]}', why)
    why = check_cw(seed, read(f'{mnt}/r/cw'))
    c(not why, 'cw: absent, or whole blocks of its versions or zeros', why)
    bad, n = [], 0
    for name in sorted(os.listdir(f'{mnt}/r')):
        if name[0] == 'n' and name[1:].isdigit():
            n += 1
            data, want = read(f'{mnt}/r/{name}'), new_file(seed, int(name[1:]))
            if len(data) > len(want) or any(
                    data[o:o + BLOCK] != want[o:o + len(data[o:o + BLOCK])] and
                    any(data[o:o + BLOCK]) for o in range(0, len(data), BLOCK)):
                bad.append(f'{name} ({len(data)} of {len(want)} bytes)')
    c(not bad, f'each unsynced new file is a prefix of its bytes (zeros allowed) ({n} files)',
      ' '.join(bad))
    print(f'{c.passed} passed, {c.failed} failed')
    return c.failed == 0


def repaired(front, mnt):
    """every file under MNT/r has the copies it wants, none stale"""
    bad, n = 0, 0
    for dirpath, _, names in os.walk(f'{mnt}/r'):
        for name in names:
            path = f'{dirpath}/{name}'
            n += 1
            st = dict(w.split('=', 1) for w in
                      os.getxattr(path, 'user.morphstore.status').decode().split()
                      if '=' in w)
            if st.get('wanted') != st.get('copies') or st.get('stale') != '0x0':
                print(f'unrepaired: {front}: {path[len(mnt) + 1:]}: ' +
                      ' '.join(f'{k}={v}' for k, v in st.items()))
                bad += 1
    print(f'{front}: {n} files, {bad} unrepaired')
    return bad == 0


if __name__ == '__main__':
    if len(sys.argv) == 5 and sys.argv[1] == 'write':
        write(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) == 4 and sys.argv[1] == 'repaired':
        sys.exit(0 if repaired(sys.argv[2], sys.argv[3]) else 1)
    elif len(sys.argv) == 5 and sys.argv[1] == 'check':
        sys.exit(0 if check(sys.argv[2], sys.argv[3], sys.argv[4]) else 1)
    else:
        sys.exit(__doc__)
