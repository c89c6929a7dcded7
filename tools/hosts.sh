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
#   musl: build-musl, CC=musl-gcc (musl-tools) with popt and check
#     built for musl first, from the upstream tarballs in their Debian
#     source packages (apt-get source --download-only; deps.sh --hosts
#     adds the deb-src lines) into build-musl/sysroot, static; the Linux
#     UAPI headers (linux/, asm/, asm-generic/) of linux-libc-dev, which
#     musl-gcc does not search, in build-musl/kernel.  The unit tests
#     (of check_crash, the faults case only: run_quick) and the smoke
#     tests of MUSL_TESTS.
#   s390x: build-s390x, big-endian, the Debian cross compiler
#     s390x-linux-gnu-gcc (--host=s390x-linux-gnu) with popt and check of
#     s390x unpacked from apt-get download into build-s390x/sysroot
#     (bookworm-security has no s390x: the s390x libc6-dev lags behind the
#     machine's and Multi-Arch cannot install it).  No binfmt_misc is
#     needed (CI containers have none): qemu-s390x-static runs each
#     binary, through LOG_COMPILER for the unit tests and a FATPREALLOC
#     wrapper for the image tests, as tools/valgrind.sh does.  The unit
#     tests (of check_crash, the faults case only: run_quick), the image
#     tests of S390X_TESTS, and cross_repro: the same preallocations and
#     copies by the native build (build/, made if missing) and by the
#     s390x one must give byte-identical images.
# Then, whatever the hosts, the POSIX platform file (check_posix below).
# Each host prints the time it took (package installation excluded:
# tools/deps.sh --hosts does it first); musl and s390x start from empty
# build directories, sysroots included, as in CI's clean clone.
# Usage: tools/hosts.sh [clang | i686 | musl | s390x]...
# (default: all four)
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
# A smoke run on musl: the command line and its messages (cli), a FAT32
# volume (fat32), copies (populate).
MUSL_TESTS='tests/img/cli.test tests/img/fat32.test tests/img/populate.test'
# Big-endian, under emulation (each run of fatprealloc costs about 0.2 s):
# each FAT type's entry accessors and directory entries (fat12, fat16,
# fat32), copies (populate), byte-identical images (repro), and --verify
# on a sample of the corpus, one case a FAT type.  Left out for time:
# hostile (2 minutes here; its BPB fields are decoded by the code that
# check_bpb and the corpus run) and partitions (1.5 minutes; check_ptable
# covers the MBR and GPT decoding and the GPT CRCs).
S390X_TESTS='tests/img/fat12.test tests/img/fat16.test tests/img/fat32.test
tests/img/populate.test tests/img/repro.test
tests/corpus/cross-link-fat12/image.sh tests/corpus/chain-loop-fat16/image.sh
tests/corpus/fat-mismatch-fat32/image.sh'

hosts=${*:-clang i686 musl s390x}
for h in $hosts; do
	case $h in
	clang | i686 | musl | s390x) ;;
	*)
		echo "usage: tools/hosts.sh [clang | i686 | musl | s390x]..." >&2
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

# build_host NAME CONFIGURE-ARGUMENTS...: configure and build in
# build-NAME, and stay there.
build_host() {
	name=$1
	shift
	dir=$top/build-$name
	mkdir -p "$dir"
	cd "$dir"
	"$top/configure" --enable-werror "$@" >/dev/null
	make -j"$(nproc)"
}

# run_tests TESTS [MAKE-ARGUMENTS...]: in the current build directory,
# make check TESTS; on failure, the end of the log.  Configure leaves
# the unit tests out when CC cannot use check: here that is a failure.
run_tests() {
	tests=$(echo "$1" | tr '\n' ' ')
	shift
	make -j"$(nproc)" check TESTS= >/dev/null
	[ -x tests/unit/check_le ] || {
		echo "hosts.sh: no unit tests: configure found no check" >&2
		exit 1
	}
	make -j"$(nproc)" check TESTS="$tests" "$@" || {
		tail -n 200 test-suite.log 2>/dev/null
		exit 1
	}
}

# run_quick TESTS [MAKE-ARGUMENTS...]: run_tests with the unit tests and
# TESTS, but of check_crash only its faults case, after the others: its
# core case (a preallocation and a check of a 40 MB image at each of
# about 60 fault points, the same library code on every host) takes
# minutes on a loaded machine and over 10 minutes under qemu.
run_quick() {
	quick=$1
	shift
	run_tests "\$(filter-out tests/unit/check_crash,\$(UNIT_TESTS)) $quick" \
		"$@"
	(
		CK_RUN_CASE=faults
		export CK_RUN_CASE
		run_tests tests/unit/check_crash "$@"
	)
}

# check_host NAME TESTS CONFIGURE-ARGUMENTS...: build in build-NAME, run
# the unit tests and TESTS there.
check_host() {
	name=$1
	tests=$2
	shift 2
	build_host "$name" "$@"
	run_tests "\$(UNIT_TESTS) $tests"
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

# elf_field FILE OFFSET: the byte at OFFSET of FILE's ELF header, in
# decimal (4: 1 for 32-bit, 2 for 64-bit; 5: 1 little-endian, 2 big).
elf_field() {
	od -An -tu1 -j"$2" -N1 "$1" | tr -d ' '
}

# expect_elf DIR OFFSET VALUE WHAT: fatprealloc and check_le in DIR have
# VALUE at OFFSET of their ELF header.  A cross build that fell back to
# the native compiler would pass the tests and prove nothing.
expect_elf() {
	for f in src/fatprealloc tests/unit/check_le; do
		[ "$(elf_field "$1/$f" "$2")" = "$3" ] || {
			echo "hosts.sh: $1/$f is not $4" >&2
			exit 1
		}
	done
}

host_clang() {
	check_host clang "$CLANG_TESTS" CC=clang
}

host_i686() {
	# The i386 .pc files only: those of x86_64 would link popt and
	# check of the wrong word size.
	check_host i686 "$I686_TESTS" --host=i686-linux-gnu \
		PKG_CONFIG=pkg-config \
		PKG_CONFIG_LIBDIR=/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig
	expect_elf build-i686 4 1 32-bit
}

# musl: popt and check from their upstream tarballs, which Debian's source
# packages hold (Debian's patches are for its glibc build: its check.pc
# names libcheck_pic), built static into build-musl/sysroot.
host_musl() {
	dir=$top/build-musl
	rm -rf "$dir"
	mkdir -p "$dir/deps" "$dir/kernel"
	cd "$dir/deps"
	apt-get source -q --download-only popt check >/dev/null 2>&1 || {
		echo "hosts.sh: apt-get source popt check failed" \
			"(deb-src lines: tools/deps.sh --hosts)" >&2
		exit 1
	}
	for t in popt_*.orig.tar.* check_*.orig.tar.*; do
		tar xf "$t"
	done
	(
		cd popt-*/
		./configure -q --prefix="$dir/sysroot" CC=musl-gcc \
			--disable-shared --disable-nls >/dev/null
		make -s -j"$(nproc)" -C src install >/dev/null
		make -s install-pkgconfigDATA >/dev/null
	)
	(
		cd check-*/
		./configure -q --prefix="$dir/sysroot" CC=musl-gcc \
			--disable-shared --enable-subunit=no >/dev/null
		make -s -j"$(nproc)" -C lib >/dev/null
		make -s -j"$(nproc)" -C src install >/dev/null
		make -s install-includeHEADERS install-pcdataDATA >/dev/null
	)
	# The kernel's headers only, which musl-gcc does not search: all of
	# /usr/include would bring glibc's beside musl's.
	ln -s /usr/include/linux /usr/include/asm-generic "$dir/kernel/"
	ln -s "/usr/include/$(gcc -print-multiarch)/asm" "$dir/kernel/asm"
	build_host musl CC=musl-gcc CPPFLAGS="-isystem $dir/kernel" \
		PKG_CONFIG=pkg-config PKG_CONFIG_LIBDIR="$dir/sysroot/lib/pkgconfig"
	run_quick "$MUSL_TESTS"
	# A glibc build would name GLIBC_ symbol versions.
	for f in src/fatprealloc tests/unit/check_le; do
		if grep -q GLIBC_ "$dir/$f"; then
			echo "hosts.sh: build-musl/$f links glibc" >&2
			exit 1
		fi
	done
}

# cross_repro NATIVE CROSS: the same preallocations and copies by the
# programs NATIVE and CROSS, on copies of the same fixture of each FAT
# type, give byte-identical images and the same --verify --json report.
cross_repro() {
	w=$(mktemp -d)
	head -c 70000 /dev/urandom >"$w/src.bin"
	# FAT type, sectors per cluster, KiB: 4000, 40000, 79000 clusters.
	for g in 12:2:4000 16:2:40000 32:1:40000; do
		fat=${g%%:*}
		rm -f "$w/fat.img"
		mkfs.fat -C --invariant -F "$fat" -s "$(echo "$g" | cut -d: -f2)" \
			"$w/fat.img" "${g##*:}" >/dev/null
		n=0
		for p in "$1" "$2"; do
			n=$((n + 1))
			cp "$w/fat.img" "$w/out$n.img"
			SOURCE_DATE_EPOCH=1700000000 "$p" -p "$w/out$n.img" \
				"::a/Long Name.bin" 300K ::b.bin 7 \
				"$w/src.bin" ::a/c.bin >/dev/null
			"$p" -c -t 1700000000 "$w/out$n.img" ::d.bin 1M \
				>/dev/null
			# The report names the image: the same name for both.
			cp "$w/out$n.img" "$w/check.img"
			"$p" --verify --json "$w/check.img" >"$w/verify$n"
		done
		echo "hosts.sh: FAT$fat, native and s390x:"
		sha256sum "$w/out1.img" "$w/out2.img"
		if ! cmp "$w/out1.img" "$w/out2.img" ||
			! cmp "$w/verify1" "$w/verify2"; then
			echo "hosts.sh: FAT$fat differs between the hosts" >&2
			exit 1
		fi
	done
	rm -rf "$w"
}

# s390x: popt and check of s390x unpacked from their packages into
# build-s390x/sysroot (pkg-config prefixes their paths with it); the
# compiler's own libc in /usr/s390x-linux-gnu, which qemu -L finds.
host_s390x() {
	dir=$top/build-s390x
	rm -rf "$dir"
	mkdir -p "$dir/debs"
	cd "$dir/debs"
	apt-get download -q libpopt0:s390x libpopt-dev:s390x check:s390x \
		libsubunit0:s390x libsubunit-dev:s390x >/dev/null 2>&1 || {
		echo "hosts.sh: apt-get download of the s390x libraries" \
			"failed (the s390x lists: tools/deps.sh --hosts)" >&2
		exit 1
	}
	for d in *.deb; do
		dpkg-deb -x "$d" "$dir/sysroot"
	done
	lib=$dir/sysroot/usr/lib/s390x-linux-gnu
	# No binfmt_misc: each s390x binary runs under qemu by name.
	cat >"$dir/qemu-wrap" <<WRAP
#!/bin/sh
exec qemu-s390x-static -L /usr/s390x-linux-gnu -E LD_LIBRARY_PATH=$lib "\$@"
WRAP
	cat >"$dir/qemu-fatprealloc" <<WRAP
#!/bin/sh
exec "$dir/qemu-wrap" "$dir/src/fatprealloc" "\$@"
WRAP
	chmod +x "$dir/qemu-wrap" "$dir/qemu-fatprealloc"
	build_host s390x --host=s390x-linux-gnu PKG_CONFIG=pkg-config \
		PKG_CONFIG_LIBDIR="$lib/pkgconfig" \
		PKG_CONFIG_SYSROOT_DIR="$dir/sysroot"
	make -j"$(nproc)" check TESTS= >/dev/null
	expect_elf "$dir" 5 2 big-endian
	CK_TIMEOUT_MULTIPLIER=10
	export CK_TIMEOUT_MULTIPLIER
	set -- LOG_COMPILER="$dir/qemu-wrap" \
		TESTS_ENVIRONMENT="FATPREALLOC='$dir/qemu-fatprealloc'; export FATPREALLOC;"
	run_quick "$S390X_TESTS" "$@"
	cd "$top"
	[ -x build/src/fatprealloc ] || sh tools/build.sh build >/dev/null
	cross_repro "$top/build/src/fatprealloc" "$dir/qemu-fatprealloc"
}

for h in $hosts; do
	echo "hosts.sh: $h"
	t0=$(date +%s)
	"host_$h"
	cd "$top"
	echo "hosts.sh: $h passed in $(($(date +%s) - t0)) s"
done
check_posix
echo "hosts.sh: $hosts passed"
