#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Build and test on hosts other than the native gcc one (issue 27), each
# with --enable-werror in its own directory, after tools/deps.sh --hosts
# has installed what they need:
#   clang: build-clang, CC=clang; the unit tests and the image tests of
#     CLANG_TESTS below.
#   i686: build-i686, the Debian cross compiler i686-linux-gnu-gcc with
#     the i386 popt and check (--host=i686-linux-gnu, the i386 .pc files);
#     the binaries run here, on the x86_64 kernel.  32-bit size_t, long
#     and pointers (off_t is 64-bit through AC_SYS_LARGEFILE): the unit
#     tests and the image tests of I686_TESTS, large.test among them.
# Usage: tools/hosts.sh [clang | i686]...	(default: both)
#
# Not yet:
#   musl (musl-gcc of musl-tools): the sources but main.c and cli.c
#     (popt.h) compile once the kernel headers (linux/, asm/,
#     asm-generic/) are on its include path; popt and check would have
#     to be built for musl from their Debian source packages first
#     (deb-src lines needed).  An estimate: 3 to 5 minutes of CI more.
#   s390x (big-endian): gcc-s390x-linux-gnu, and libc6-dev, libpopt-dev
#     and check of the s390x architecture added to dpkg as i386 is here
#     (untried; simpler than a sysroot of apt-get download); qemu-user-static
#     (63 MB, 380 MB installed) runs the binaries, through LOG_COMPILER
#     and a FATPREALLOC wrapper as tools/valgrind.sh does where there is
#     no binfmt_misc (CI containers).  About 10 to 20 minutes of CI for
#     the unit tests and a few image tests under emulation.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)

# Each FAT type's entry accessors and scan loops (fat12, fat16, fat32),
# overflowing geometry (hostile), size parsing at its limits (sizes),
# copies (populate) and images that must be byte-identical on any host
# (repro).
CLANG_TESTS='tests/img/fat12.test tests/img/fat16.test tests/img/fat32.test
tests/img/hostile.test tests/img/sizes.test tests/img/populate.test
tests/img/repro.test'
# Offsets above 4 GiB and a file of 4 GiB - 1 (large), offsets in every
# form (offsets), sizes up to 4294967295 and their overflow (sizes),
# geometry that overflows 32 bits (hostile), the FAT read in windows
# (windows), copies (populate) and byte-identical images (repro).
I686_TESTS='tests/img/large.test tests/img/offsets.test tests/img/sizes.test
tests/img/hostile.test tests/img/windows.test tests/img/populate.test
tests/img/repro.test'

hosts=${*:-clang i686}
for h in $hosts; do
	case $h in
	clang | i686) ;;
	*)
		echo "usage: tools/hosts.sh [clang | i686]..." >&2
		exit 16
		;;
	esac
done

sh "$top/tools/deps.sh" --hosts
cd "$top"
[ -x configure ] && [ -f tests/corpus/list.am ] || ./bootstrap >/dev/null
# deps.sh installed every tool the tests use: none may skip.  The slow
# large.test is the point of the i686 host: FP_QUICK would skip it.
export FP_NO_SKIP=1
unset FP_QUICK

# check_host NAME TESTS CONFIGURE-ARGUMENTS...: build in build-NAME, run
# the unit tests and TESTS there.
check_host() {
	name=$1
	tests=$(echo "$2" | tr '\n' ' ')
	shift 2
	dir=$top/build-$name
	echo "hosts.sh: $name"
	mkdir -p "$dir"
	cd "$dir"
	"$top/configure" --enable-werror "$@" >/dev/null
	make -j"$(nproc)"
	make -j"$(nproc)" check TESTS="\$(UNIT_TESTS) $tests" || {
		tail -n 200 test-suite.log 2>/dev/null
		exit 1
	}
	cd "$top"
}

# check_posix: the POSIX platform file (README, "What is Linux-only"),
# on every run whatever the hosts: built in build-posix with
# --with-platform=posix, the unit tests whose cases depend on the
# platform file, and no Linux call left in libfp.a.  About 20 seconds
# of CPU.
check_posix() {
	posix_tests='tests/unit/check_image tests/unit/check_fat
tests/unit/check_copy'
	echo "hosts.sh: posix"
	mkdir -p "$top/build-posix"
	cd "$top/build-posix"
	"$top/configure" --enable-werror --with-platform=posix >/dev/null
	make -j"$(nproc)"
	make -j"$(nproc)" check \
		TESTS="$(echo "$posix_tests" | tr '\n' ' ')" || {
		tail -n 200 test-suite.log 2>/dev/null
		exit 1
	}
	if nm -u src/lib/libfp.a |
		grep -Ew 'ioctl|fallocate|copy_file_range|madvise'; then
		echo "hosts.sh: build-posix calls Linux" >&2
		exit 1
	fi
	cd "$top"
}

# elf_class FILE: 1 for a 32-bit ELF file, 2 for a 64-bit one.
elf_class() {
	od -An -tu1 -j4 -N1 "$1" | tr -d ' '
}

for h in $hosts; do
	case $h in
	clang)
		check_host clang "$CLANG_TESTS" CC=clang
		;;
	i686)
		# The i386 .pc files only: those of x86_64 would link popt
		# and check of the wrong word size.
		check_host i686 "$I686_TESTS" --host=i686-linux-gnu \
			PKG_CONFIG=pkg-config \
			PKG_CONFIG_LIBDIR=/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig
		# A cross build that fell back to the native compiler
		# would pass the tests and prove nothing.
		for f in src/fatprealloc tests/unit/check_le; do
			[ "$(elf_class "build-i686/$f")" = 1 ] || {
				echo "hosts.sh: build-i686/$f is not 32-bit" >&2
				exit 1
			}
		done
		;;
	esac
done
check_posix
echo "hosts.sh: $hosts passed"
