# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# bench/lib.sh - helpers the timing scripts share (sourced, bash >= 5).

# ms: now, in seconds with microseconds (elapsed takes two of them).
ms() { echo "$EPOCHREALTIME"; }

# elapsed A B: milliseconds from A to B, one decimal.
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }'; }

# median: the median of the numbers on standard input, one a line.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# fill FILE BYTES: BYTES random bytes in FILE.
fill() { head -c "$2" /dev/urandom >"$1"; }
