#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Build the Debian source and binary packages from the release tarball,
# check them with lintian, install the .deb and run tools/demo.sh with
# the installed /usr/bin/fatprealloc.
# Usage: tools/deb.sh [DIR]   (default: build-deb; emptied first)
#
# The tarball is make dist's from the working tree, renamed to
# fatprealloc_VERSION.orig.tar.xz; packaging/debian becomes its debian/.
# Any lintian tag of severity error or warning fails the run, as does a
# version in packaging/debian/changelog that is not the tarball's.  The
# package is installed with apt-get (through sudo unless root) and, if it
# was not installed before, removed again when the script ends.  Needs
# dpkg-dev, debhelper and lintian, and for the demo dosfstools, mtools
# and fdisk.
set -e
PATH=$PATH:/usr/sbin:/sbin
export PATH
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build-deb}
case $dir in
/*) ;;
*) dir="$top/$dir" ;;
esac

need=
for c in dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian \
	mkfs.fat:dosfstools fsck.fat:dosfstools mdir:mtools sfdisk:fdisk; do
	command -v "${c%%:*}" >/dev/null 2>&1 || need="$need ${c#*:}"
done
if [ -n "$need" ]; then
	echo "deb.sh: missing commands; install:$need (tools/deps.sh --deb)" >&2
	exit 1
fi
if [ "$(id -u)" = 0 ]; then
	sudo=
else
	sudo=sudo
fi

rm -rf "$dir"
mkdir -p "$dir/dist"
cd "$top"
[ -x configure ] && [ -f tests/corpus/list.am ] || ./bootstrap >/dev/null
cd "$dir/dist"
"$top/configure" >/dev/null
make dist >/dev/null

ver=$(dpkg-parsechangelog -l "$top/packaging/debian/changelog" -S Version)
up=${ver%-*}
tarball="$dir/dist/fatprealloc-$up.tar.xz"
if [ ! -f "$tarball" ]; then
	echo "deb.sh: packaging/debian/changelog has $ver, but make dist" \
		"made:" "$dir"/dist/fatprealloc-*.tar.* >&2
	exit 1
fi
cp "$tarball" "$dir/fatprealloc_$up.orig.tar.xz"
tar -C "$dir" -xJf "$dir/fatprealloc_$up.orig.tar.xz"
cp -R "$top/packaging/debian" "$dir/fatprealloc-$up/debian"

cd "$dir/fatprealloc-$up"
dpkg-buildpackage -us -uc -jauto
cd "$dir"
arch=$(dpkg --print-architecture)
lintian -EvIL +pedantic --fail-on error,warning \
	"fatprealloc_${ver}_$arch.changes"

installed=$(dpkg-query -W -f='${Status}' fatprealloc 2>/dev/null || true)
if [ "$installed" != "install ok installed" ]; then
	trap '$sudo dpkg -r fatprealloc >/dev/null' EXIT
	trap 'exit 1' HUP INT TERM
fi
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends \
	"./fatprealloc_${ver}_$arch.deb"
got=$(dpkg-query -W -f='${Version}' fatprealloc)
if [ "$got" != "$ver" ]; then
	echo "deb.sh: fatprealloc $got is installed, not $ver" >&2
	exit 1
fi
dpkg -S /usr/bin/fatprealloc
/usr/bin/fatprealloc --version
dpkg -L fatprealloc | grep -x -e /usr/share/man/man1/fatprealloc.1.gz \
	-e /usr/share/bash-completion/completions/fatprealloc
FATPREALLOC=/usr/bin/fatprealloc sh "$top/tools/demo.sh"
echo "deb.sh: $dir/fatprealloc_${ver}_$arch.deb built, lintian-clean," \
	"installed and run"
