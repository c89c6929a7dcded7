#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# bench/align.sh - what host alignment (docs/DESIGN.md) is for: the time
# of copy_file_range(2) of 30 MiB into a fresh copy of a 256 MiB sparse
# image at offsets 64 KiB-aligned and not, against the same bytes into a
# new file from offset 0 (what cat does, the floor of bench/replace.sh).
# Only the copy is timed, inside one python3 process; each repetition
# gets a fresh copy of the image (made by cp, which keeps its holes, then
# synced, outside the timing).
#
# Needs (Debian packages): bash, coreutils, python3.
#
# Usage: bench/align.sh [--reps N]   (default 11)
# Environment: BENCH_DIR (default $TMPDIR or /tmp).
set -u
REPS=11
while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=${2:?}; shift ;;
	*) echo "align: unknown option '$1'" >&2; exit 16 ;;
	esac
	shift
done
W=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/fpalign.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT
head -c $((30 << 20)) /dev/urandom >"$W/src.bin"
truncate -s 256M "$W/base.img"
# a little data before the holes, as a volume's boot sector and FATs
head -c $((4 << 20)) /dev/urandom | dd of="$W/base.img" conv=notrunc \
	status=none

python3 - "$W" "$REPS" <<'EOF'
import os, statistics, subprocess, sys, time

w, reps = sys.argv[1], int(sys.argv[2])
src = os.path.join(w, "src.bin")
size = os.path.getsize(src)
base = 34 << 20

def copy_ms(dst, off, new):
    if new:
        try:
            os.unlink(dst)
        except FileNotFoundError:
            pass
    else:
        # cp keeps the holes (a Python copy would fill them)
        subprocess.run(["cp", os.path.join(w, "base.img"), dst], check=True)
    os.sync()
    fi = os.open(src, os.O_RDONLY)
    fo = os.open(dst, os.O_WRONLY | (os.O_CREAT if new else 0), 0o644)
    t = time.perf_counter()
    done = 0
    while done < size:
        done += os.copy_file_range(fi, fo, size - done, done, off + done)
    t = time.perf_counter() - t
    os.close(fo)
    os.close(fi)
    return t * 1000

cases = [("new file, offset 0", 0, True),
         ("image, 64 KiB-aligned", base, False),
         ("image, +32 KiB", base + (32 << 10), False),
         ("image, +16 KiB", base + (16 << 10), False),
         ("image, +4 KiB", base + (4 << 10), False),
         ("image, +512 B", base + 512, False)]
times = {c[0]: [] for c in cases}
for r in range(reps):            # the cases in turn, so drift hits all
    for name, off, new in cases:
        times[name].append(copy_ms(os.path.join(w, "t.img"), off, new))
floor = statistics.median(times[cases[0][0]])
print(f"copy_file_range of 30 MiB (median of {reps}, ms; ratio to the new file):")
for name, _, _ in cases:
    m = statistics.median(times[name])
    print(f"  {name:24s} {m:6.1f}  {m / floor:.2f}")
EOF
