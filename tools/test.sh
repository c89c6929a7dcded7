#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Install what is missing, build and run the whole test suite.
# Usage: tools/test.sh [--sanitize | --portable]
#   --sanitize: ASan + UBSan build, the whole suite
#   --portable: the unit tests on a build with the big-endian code paths
#   (tools/build.sh --portable)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/deps.sh"
tests=
if [ "$1" = --sanitize ]; then
	dir=build-sanitize
	sh "$top/tools/build.sh" --sanitize "$dir"
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
elif [ "$1" = --portable ]; then
	dir=build-portable
	sh "$top/tools/build.sh" --portable "$dir"
	tests='TESTS=$(UNIT_TESTS)'
else
	dir=build
	sh "$top/tools/build.sh" "$dir"
fi
cd "$top/$dir"
# deps.sh installed every tool the tests use: none may skip.
export FP_NO_SKIP=1
make -j"$(nproc)" check ${tests:+"$tests"} || {
	cat test-suite.log 2>/dev/null | tail -n 200
	exit 1
}
