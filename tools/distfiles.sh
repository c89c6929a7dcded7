#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Every file git tracks is in the release tarball (but .gitignore): so
# that the tarball's tests and build see what a checkout sees, without
# running the whole suite again from it.  CI runs it after make distcheck
# (which runs the unit and documentation tests from the tarball).
# Usage: tools/distfiles.sh TARBALL
set -e
tarball=${1:?usage: tools/distfiles.sh TARBALL}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -tf "$tarball" | sed 's|^[^/]*/||' | grep -v '/$' | sort >"$tmp/dist"
git -C "$top" ls-files | grep -vx '.gitignore' | sort >"$tmp/git"
comm -23 "$tmp/git" "$tmp/dist" >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
	echo "distfiles: tracked files missing from $tarball:" >&2
	cat "$tmp/missing" >&2
	exit 1
fi
echo "distfiles: all $(wc -l <"$tmp/git") tracked files are in $tarball"
