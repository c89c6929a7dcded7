#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Configure and build fatprealloc out of tree in DIR (default: build).
# Usage: tools/build.sh [--sanitize | --portable] [DIR]
#   --portable: as if the host were not little-endian (__BYTE_ORDER__
#   undefined), so that the byte-by-byte loads and the plain loops that
#   big-endian hosts use are built and tested here too
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cflags=
if [ "$1" = --sanitize ]; then
	cflags='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all'
	shift
elif [ "$1" = --portable ]; then
	cflags='-O2 -g -U__BYTE_ORDER__'
	shift
fi
dir=${1:-build}
cd "$top"
[ -x configure ] && [ -f tests/corpus/list.am ] || ./bootstrap >/dev/null
mkdir -p "$dir"
cd "$dir"
if [ -n "$cflags" ]; then
	"$top/configure" --enable-werror CFLAGS="$cflags" >/dev/null
else
	"$top/configure" --enable-werror >/dev/null
fi
make -j"$(nproc)"
