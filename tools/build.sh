#!/bin/sh
# Configure and build fatprealloc out of tree in DIR (default: build).
# Usage: tools/build.sh [--sanitize] [DIR]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cflags=
if [ "$1" = --sanitize ]; then
	cflags='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all'
	shift
fi
dir=${1:-build}
cd "$top"
[ -x configure ] || ./bootstrap >/dev/null
mkdir -p "$dir"
cd "$dir"
if [ -n "$cflags" ]; then
	"$top/configure" --enable-werror CFLAGS="$cflags" >/dev/null
else
	"$top/configure" --enable-werror >/dev/null
fi
make -j"$(nproc)"
