#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Static analysis of src/ (the library and the tool): a gcc -fanalyzer
# build (CFLAGS='-O2 -fanalyzer', every file compiled again) in
# build-analyze, then cppcheck --enable=warning,portability if it is
# installed.  Prints each finding as a key, "gcc FILE FUNCTION -WOPTION"
# or "cppcheck FILE ID MESSAGE"; tools/analyze.known lists the keys of
# findings that were judged false positives, each with its reason, and
# only the others count.  Exits 0 when there is no other finding, 1 when
# there is, 2 when the build itself fails.  About a minute on 2 cores.
# Usage: tools/analyze.sh
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
known="$top/tools/analyze.known"
export LC_ALL=C		# plain quotes around function names
cd "$top"
[ -x configure ] && [ -f tests/corpus/list.am ] || ./bootstrap >/dev/null
mkdir -p build-analyze
cd build-analyze
"$top/configure" CFLAGS='-O2 -fanalyzer' >/dev/null
make clean >/dev/null
if ! make -j"$(nproc)" >build.log 2>&1; then
	cat build.log >&2
	echo "analyze.sh: the -fanalyzer build failed" >&2
	exit 2
fi

# gcc: "FILE: In function 'F':" names the function of the warnings that
# follow it.
awk -v top="$top/" '
	/: In function / {
		f = $0
		sub(/^.*: In function \047/, "", f)
		sub(/\047.*$/, "", f)
	}
	/: warning: .*\[-W[^]]*\]$/ {
		file = $0
		sub(/:.*$/, "", file)
		sub(/^(\.\.\/)+/, "", file)
		if (index(file, top) == 1)
			file = substr(file, length(top) + 1)
		opt = $0
		sub(/^.*\[/, "", opt)
		sub(/\]$/, "", opt)
		print "gcc " file " " f " " opt
	}' build.log | sort -u >keys

if command -v cppcheck >/dev/null; then
	(cd "$top" && cppcheck --enable=warning,portability --std=c11 \
		-D_GNU_SOURCE -Isrc/lib --inline-suppr --quiet \
		--template='cppcheck {file} {id} {message}' src) \
		2>cppcheck.log || true
	grep '^cppcheck ' cppcheck.log | sort -u >>keys || true
else
	echo "analyze.sh: cppcheck not installed, skipped" >&2
fi

status=0
while IFS= read -r k; do
	if grep -Fxq -- "$k" "$known"; then
		echo "known: $k"
	else
		echo "FINDING: $k"
		status=1
	fi
done <keys
grep -v '^#' "$known" | grep -v '^$' | while IFS= read -r k; do
	grep -Fxq -- "$k" keys ||
		echo "analyze.sh: no longer found, remove from analyze.known: $k"
done
[ "$status" = 0 ] || echo "analyze.sh: details in build-analyze/build.log and cppcheck.log" >&2
exit "$status"
