#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Build without sanitizers in build-valgrind/ and run tests under
# valgrind memcheck: the unit tests themselves, and in the image tests
# every run of fatprealloc (through FATPREALLOC, which tests/img/lib.sh
# runs).  Any invalid access, use of uninitialised memory or definite or
# indirect leak fails the test that hit it (exit 1 from valgrind).
# Usage: tools/valgrind.sh [--all | TEST...]
# Default: a representative subset (QUICK below) that fits in CI; --all:
# the whole suite but the tests of SLOW below; TEST...:
# those tests (any, given as in TESTS).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
dir=build-valgrind
command -v valgrind >/dev/null 2>&1 || {
	echo "valgrind.sh: valgrind is not installed" >&2
	exit 1
}
sh "$top/tools/build.sh" "$dir"
cd "$top/$dir"
make -j"$(nproc)" check TESTS= >/dev/null

# The wrapper: the same options for the unit tests (LOG_COMPILER) and
# for fatprealloc in the image tests.
cat >vg-wrap <<EOF
#!/bin/sh
FP_VALGRIND=1
export FP_VALGRIND
exec valgrind -q --error-exitcode=1 --leak-check=full \\
	--errors-for-leak-kinds=definite,indirect --track-origins=yes \\
	--trace-children=no "\$@"
EOF
cat >vg-fatprealloc <<EOF
#!/bin/sh
exec "$top/$dir/vg-wrap" "$top/$dir/src/fatprealloc" "\$@"
EOF
chmod +x vg-wrap vg-fatprealloc

# Too slow under valgrind: check_crash runs a whole preallocation and a
# check of a 40 MB image about 60 times, kill.test times its kills and
# traces the process with strace, check_bitset fills sets of millions of
# clusters (7 minutes under memcheck; ASan runs it whole).
SLOW='tests/unit/check_crash tests/img/kill.test tests/unit/check_bitset'
# The subset: the unit tests of the on-disk format, the allocator, the
# change set and its commit, the walk, the volume opening and the
# requests (each under 10 s here), and image tests that run each layer:
# the three FAT types, extension, directory growth, the command line,
# refused images and partition tables.  The listing, SHA-256 and --diff
# units: 4.8 s, 3.0 s and 1.0 s here, on a loaded 2-core VM.
QUICK='tests/unit/check_le tests/unit/check_size tests/unit/check_name
tests/unit/check_dir
tests/unit/check_fat tests/unit/check_bitmap
tests/unit/check_bpb tests/unit/check_err
tests/unit/check_plan tests/unit/check_verify tests/unit/check_ptable
tests/unit/check_alloc tests/unit/check_commit tests/unit/check_walk
tests/unit/check_vol tests/unit/check_reqs
tests/unit/check_list tests/unit/check_sha256 tests/unit/check_diff
tests/img/fat12.test tests/img/fat32.test tests/img/extend.test
tests/img/dir-grow.test tests/img/cli.test tests/img/refuse-image.test
tests/img/partitions.test'
if [ "${1:-}" = --all ]; then
	tests=$(make -s print-tests) || exit 1
	for s in $SLOW; do
		tests=$(echo "$tests" | tr ' ' '\n' | grep -v -x "$s" |
			tr '\n' ' ')
	done
elif [ $# -gt 0 ]; then
	tests="$*"
else
	tests=$(echo $QUICK)
fi
CK_TIMEOUT_MULTIPLIER=20
export CK_TIMEOUT_MULTIPLIER
make -j"$(nproc)" check TESTS="$tests" LOG_COMPILER="$top/$dir/vg-wrap" \
	TESTS_ENVIRONMENT="FATPREALLOC='$top/$dir/vg-fatprealloc'; export FATPREALLOC;" || {
	cat test-suite.log 2>/dev/null | tail -n 200
	exit 1
}
