# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# lib.sh: helpers for the fatprealloc image tests (POSIX sh).
#
# Each test does '. "$TESTLIB"' first.  The harness sets FATPREALLOC (the
# binary) and TESTLIB (this file).  Fixtures are made at test time with
# mkfs.fat and mtools in a private temporary directory $T that is removed on
# exit (set FP_KEEP_TMP=1 to keep it for debugging).
#
# Exit codes: 0 pass, 1 fail, 77 skip (a required tool is missing),
# 99 harness error.  Assertions call fail(), which exits 1 at once.
#
# All output goes to the test's log; the lines starting with "+" show what
# was run, so a failing log reads as a reproduction.

set -u

# mtools converts names through the locale: use a UTF-8 one when there is one.
fp_utf8_locale=
for fp_l in C.UTF-8 C.utf8 en_US.UTF-8 en_US.utf8; do
	if locale -a 2>/dev/null | grep -qx "$fp_l"; then
		fp_utf8_locale=$fp_l
		break
	fi
done
if [ -n "$fp_utf8_locale" ]; then
	LC_ALL=$fp_utf8_locale
else
	LC_ALL=C
fi
export LC_ALL
unset LANG LANGUAGE LC_CTYPE 2>/dev/null
MTOOLS_SKIP_CHECK=1
export MTOOLS_SKIP_CHECK
unset SOURCE_DATE_EPOCH 2>/dev/null

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

hard_error() {
	echo "ERROR (harness): $*" >&2
	exit 99
}

# skip REASON: exit 77, which the harness counts as skipped.  Under
# FP_NO_SKIP (tools/test.sh sets it, after installing every dependency)
# a missing tool is a harness error instead: a suite that skips silently
# proves nothing.
skip() {
	if [ -n "${FP_NO_SKIP:-}" ]; then
		hard_error "$* (FP_NO_SKIP is set: no tool may be missing)"
	fi
	skip_env "$@"
}

# skip_env REASON: skip even under FP_NO_SKIP, for what no package
# installs: root, a loop device, a file system's limits, FP_QUICK, or a
# tool version without the behaviour the test is about.
skip_env() {
	echo "SKIP: $*" >&2
	exit 77
}

note() {
	printf '# %s\n' "$*"
}

if [ -z "${FATPREALLOC:-}" ] || [ -z "${TESTLIB:-}" ]; then
	hard_error "FATPREALLOC and TESTLIB must be set"
fi
if [ ! -x "$FATPREALLOC" ]; then
	hard_error "no executable at FATPREALLOC=$FATPREALLOC"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/fpimg.XXXXXX") || hard_error "mktemp -d failed"
if [ -n "${FP_KEEP_TMP:-}" ]; then
	trap 'echo "# kept $T"' EXIT
else
	trap 'rm -rf "$T"' EXIT
fi
trap 'exit 99' HUP INT TERM

# need_tools [TOOL...]: skip (77) unless dosfstools, mtools and TOOLs exist.
need_tools() {
	for fp_t in mkfs.fat fsck.fat mdir mcopy mtype mshowfat mmd mdel \
		cmp od dd tr wc awk "$@"; do
		command -v "$fp_t" >/dev/null 2>&1 || skip "$fp_t not found"
	done
	mkfs.fat --help 2>&1 | grep -q -e '--invariant' ||
		skip "mkfs.fat without --invariant (need dosfstools >= 4.2)"
}

# slow_test: skip (77) when FP_QUICK is set, for a quick local loop
# (FP_QUICK=1 make check).  The README's test command and CI's first two
# runs leave it unset and so run every test.
slow_test() {
	[ -z "${FP_QUICK:-}" ] || skip_env "slow test, and FP_QUICK is set"
}

# need_utf8: skip unless a UTF-8 locale exists (mtools needs one for
# non-ASCII names).
need_utf8() {
	[ -n "$fp_utf8_locale" ] || skip "no UTF-8 locale"
}

# run CMD...: run a helper command, harness error if it fails.
run() {
	echo "+ $*"
	"$@" >"$T/run.out" 2>&1 || {
		cat "$T/run.out" >&2
		hard_error "command failed: $*"
	}
}

# mkimg IMG FATBITS SIZE_KIB [mkfs.fat args...]
mkimg() {
	fp_img=$1 fp_bits=$2 fp_kib=$3
	shift 3
	rm -f "$fp_img"
	if [ -f "$T/kept.list" ]; then
		awk -F '\t' -v i="$fp_img" '$2 != i' "$T/kept.list" >"$T/kept.new"
		mv "$T/kept.new" "$T/kept.list"
	fi
	echo "+ mkfs.fat -C --invariant -F $fp_bits $* $fp_img $fp_kib"
	mkfs.fat -C --invariant -F "$fp_bits" "$@" "$fp_img" "$fp_kib" \
		>"$T/mkfs.out" 2>&1 || {
		cat "$T/mkfs.out" >&2
		hard_error "mkfs.fat failed"
	}
	if grep -qi -e warning -e 'not enough' -e 'too small' "$T/mkfs.out"; then
		cat "$T/mkfs.out" >&2
		hard_error "mkfs.fat warned: pick other fixture parameters"
	fi
}

# fp ARGS...: run fatprealloc; exit code in $rc, stdout in $T/fp.out, stderr
# in $T/fp.err.  Never aborts.
fp() {
	echo "+ fatprealloc $*"
	"$FATPREALLOC" "$@" >"$T/fp.out" 2>"$T/fp.err"
	rc=$?
	echo "  -> exit $rc"
	if [ -s "$T/fp.err" ]; then
		sed 's/^/  stderr: /' "$T/fp.err" | head -n 20
	fi
}

# fp_gone FD ARGS...: run fatprealloc as fp does, but with descriptor FD
# (1, 2, or one that ARGS name for -C) a pipe whose reader has already
# exited, and SIGPIPE at its default disposition whatever the harness
# left it at (python3's subprocess restores it): a write to FD raises
# SIGPIPE, or fails with EPIPE if fatprealloc ignores it.  $rc is 128 +
# the signal when a signal killed it.  Needs python3.
fp_gone() {
	fp_gfd=$1
	shift
	echo "+ fatprealloc $* (descriptor $fp_gfd: a pipe without a reader)"
	python3 -c '
import os, subprocess, sys
tmp, fd, args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
r, w = os.pipe()
os.close(r)
if fd > 2:
    os.dup2(w, fd)
with open(tmp + "/fp.out", "wb") as o, open(tmp + "/fp.err", "wb") as e:
    p = subprocess.run(args, stdin=subprocess.DEVNULL,
                       stdout=w if fd == 1 else o,
                       stderr=w if fd == 2 else e,
                       pass_fds=(fd,) if fd > 2 else (),
                       restore_signals=True)
sys.exit(128 - p.returncode if p.returncode < 0 else p.returncode)
' "$T" "$fp_gfd" "$FATPREALLOC" "$@"
	rc=$?
	echo "  -> exit $rc"
	if [ -s "$T/fp.err" ]; then
		sed 's/^/  stderr: /' "$T/fp.err" | head -n 20
	fi
}

# expect_rc N: the last fp must have exited with N.
expect_rc() {
	[ "$rc" -eq "$1" ] || fail "expected exit $1, got $rc"
}

# fp_ok ARGS...: run fatprealloc, which must exit 0.
fp_ok() {
	fp "$@"
	expect_rc 0
}

# The line after the message of a usage error.
TRY="Try 'fatprealloc --help' for more information."

# says TEXT: the last run's stderr is exactly TEXT (lines joined by \n).
says() {
	printf '%s\n' "$1" >"$T/want.err"
	cmp -s "$T/want.err" "$T/fp.err" || {
		echo "expected stderr:" >&2
		cat "$T/want.err" >&2
		echo "got:" >&2
		cat "$T/fp.err" >&2
		fail "wrong message"
	}
}

# same_image A B: the files must be byte-identical.
same_image() {
	cmp "$1" "$2" >"$T/cmp.out" 2>&1 || {
		cat "$T/cmp.out" >&2
		fail "image $2 differs from $1"
	}
}

# refuse N IMG ARGS...: fatprealloc ARGS must exit N and leave IMG unchanged.
refuse() {
	fp_want=$1 fp_img=$2
	shift 2
	cp "$fp_img" "$T/refuse.saved" || hard_error "cp failed"
	fp "$@"
	expect_rc "$fp_want"
	same_image "$T/refuse.saved" "$fp_img"
}

# verify_ok IMG: fatprealloc --verify IMG exits 0 (no errors; warnings,
# such as the tail-beyond-size of a keep-size file, are allowed).
verify_ok() {
	echo "+ fatprealloc --verify $1"
	"$FATPREALLOC" --verify "$1" >"$T/verify.out" 2>&1
	fp_vr=$?
	if [ "$fp_vr" -ne 0 ]; then
		cat "$T/verify.out" >&2
		fail "fatprealloc --verify $1 exited $fp_vr"
	fi
}

# fsck_clean IMG: fsck.fat -n exits 0 and reports nothing, and
# fatprealloc --verify finds no errors.
fsck_clean() {
	fsck.fat -n "$1" >"$T/fsck.out" 2>&1
	fp_r=$?
	fp_probs=$(grep -v -e '^fsck\.fat [0-9]' \
		-e ': [0-9]* files, [0-9]*/[0-9]* clusters$' "$T/fsck.out")
	if [ "$fp_r" -ne 0 ] || [ -n "$fp_probs" ]; then
		cat "$T/fsck.out" >&2
		fail "fsck.fat -n $1 is not clean (exit $fp_r)"
	fi
	verify_ok "$1"
}

# fsck_keepsize IMG: like fsck_clean, but tolerate the findings that a
# keep-size preallocation causes: "File size is N bytes, cluster chain length
# is > M bytes" with its "Truncating" line, and on FAT32 the free-cluster
# summary that follows from that truncation.  Anything else fails.  Then
# fatprealloc --verify must find no errors (the tails are only warnings).
fsck_keepsize() {
	fsck.fat -n "$1" >"$T/fsck.out" 2>&1
	fp_r=$?
	awk '
	/^fsck\.fat [0-9]/ { next }
	/: [0-9]* files, [0-9]*\/[0-9]* clusters$/ { next }
	/^$/ || /^Leaving filesystem unchanged\.$/ { next }
	/^\// { hdr = 1; next }
	hdr && /^  File size is [0-9]* bytes, cluster chain length is > [0-9]* bytes\.$/ { next }
	hdr && /^  Truncating file to [0-9]* bytes\.$/ { hdr = 0; next }
	/^Free cluster summary wrong \([0-9]* vs\. really [0-9]*\)$/ { fcs = 1; next }
	fcs && /^  Auto-correcting\.$/ { fcs = 0; next }
	{ print; bad = 1 }
	END { exit bad }' "$T/fsck.out" >"$T/fsck.bad"
	fp_a=$?
	case $fp_r in 0 | 1) ;; *) fp_a=1 ;; esac
	if [ "$fp_a" -ne 0 ]; then
		cat "$T/fsck.out" >&2
		fail "fsck.fat -n $1: findings other than keep-size ones"
	fi
	verify_ok "$1"
}

# mtools_size IMG ::PATH: print the file's size as mdir shows it.
mtools_size() {
	mdir -i "$1" "$2" >"$T/mdir.out" 2>&1 || {
		cat "$T/mdir.out" >&2
		fail "mdir cannot find $2"
	}
	awk '{
		for (i = 2; i <= NF; i++)
			if ($i ~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/ &&
			    $(i - 1) ~ /^[0-9]+$/) { print $(i - 1); n++; break }
	}
	END { exit n != 1 }' "$T/mdir.out" || {
		cat "$T/mdir.out" >&2
		fail "cannot parse the size of $2 from mdir"
	}
}

# mtools_datetime IMG ::PATH: print "YYYY-MM-DD HH:MM" as mdir shows it.
mtools_datetime() {
	mdir -i "$1" "$2" >"$T/mdir.out" 2>&1 || fail "mdir cannot find $2"
	awk '{
		for (i = 2; i < NF; i++)
			if ($i ~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/) {
				t = $(i + 1)
				if (t ~ /^[0-9]:/) t = "0" t
				print $i " " t; n++; break
			}
	}
	END { exit n != 1 }' "$T/mdir.out" || fail "cannot parse the date of $2"
}

# assert_size IMG ::PATH N
assert_size() {
	fp_s=$(mtools_size "$1" "$2") || exit 1
	[ "$fp_s" = "$3" ] || fail "$2: mdir size $fp_s, expected $3"
}

# chain_clusters IMG ::PATH: print the cluster chain, one cluster a line
# (from mshowfat; nothing for an empty file).
chain_clusters() {
	mshowfat -i "$1" "$2" >"$T/showfat.out" 2>&1 || {
		cat "$T/showfat.out" >&2
		fail "mshowfat failed on $2"
	}
	tr ' ' '\n' <"$T/showfat.out" | awk '
	/^<[0-9]+(-[0-9]+)?>$/ {
		gsub(/[<>]/, ""); n = split($0, r, "-")
		a = r[1] + 0; b = (n == 2) ? r[2] + 0 : a
		for (c = a; c <= b; c++) print c
	}'
}

# first_cluster IMG ::PATH: the first cluster of the chain (mshowfat).
first_cluster() {
	chain_clusters "$1" "$2" >"$T/first.out" || exit 1
	head -n 1 "$T/first.out"
}

# chain_len IMG ::PATH: number of clusters in the chain (mshowfat).
chain_len() {
	chain_clusters "$1" "$2" >"$T/chain.out" || exit 1
	wc -l <"$T/chain.out" | tr -d ' '
}

# ceil_div A B
ceil_div() {
	echo $((($1 + $2 - 1) / $2))
}

# assert_chain IMG ::PATH SIZE: chain length is exactly ceil(SIZE/cluster).
assert_chain() {
	geom "$1"
	fp_want=$(ceil_div "$3" "$G_CLUS")
	fp_got=$(chain_len "$1" "$2") || exit 1
	[ "$fp_got" = "$fp_want" ] ||
		fail "$2: chain of $fp_got clusters, expected $fp_want (size $3, cluster $G_CLUS)"
}

# assert_contiguous IMG ::PATH: the chain is one run of consecutive clusters.
assert_contiguous() {
	chain_clusters "$1" "$2" >"$T/chain.c" || exit 1
	awk 'NR > 1 && $1 != p + 1 { bad = 1 } { p = $1 } END { exit bad }' \
		"$T/chain.c" || {
		cat "$T/showfat.out" >&2
		fail "$2: chain is not contiguous"
	}
}

# nonzero_bytes FILE: count of bytes that are not NUL.
nonzero_bytes() {
	tr -d '\000' <"$1" | wc -c | tr -d ' '
}

# file_size FILE
file_size() {
	wc -c <"$1" | tr -d ' '
}

# assert_content IMG ::PATH [OLDFILE]: the file as mtype reads it has the
# size mdir shows, starts with OLDFILE's bytes (if given) and is zero after.
assert_content() {
	fp_size=$(mtools_size "$1" "$2") || exit 1
	mtype -i "$1" "$2" >"$T/mtype.out" 2>"$T/mtype.err" || {
		cat "$T/mtype.err" >&2
		fail "mtype failed on $2"
	}
	fp_got=$(file_size "$T/mtype.out")
	[ "$fp_got" = "$fp_size" ] ||
		fail "$2: mtype read $fp_got bytes, mdir says $fp_size"
	fp_old=0
	if [ $# -ge 3 ]; then
		fp_old=$(file_size "$3")
		head -c "$fp_old" "$T/mtype.out" | cmp - "$3" >/dev/null 2>&1 ||
			fail "$2: the first $fp_old bytes changed"
	fi
	tail -c +$((fp_old + 1)) "$T/mtype.out" >"$T/mtype.tail"
	fp_nz=$(nonzero_bytes "$T/mtype.tail")
	[ "$fp_nz" = 0 ] ||
		fail "$2: $fp_nz non-zero bytes after offset $fp_old"
}

# assert_zero_content IMG ::PATH
assert_zero_content() {
	assert_content "$1" "$2"
}

# check_new IMG ::PATH SIZE: a preallocated file in default mode: mdir size,
# chain length and all-zero content.
check_new() {
	assert_size "$1" "$2" "$3"
	assert_chain "$1" "$2" "$3"
	assert_content "$1" "$2"
}

# put_file IMG ::PATH BYTES: copy BYTES of random data in with mcopy and
# remember it; check_kept IMG verifies every such file later.
put_file() {
	fp_n=$(($(cat "$T/kept.count" 2>/dev/null || echo 0) + 1))
	echo "$fp_n" >"$T/kept.count"
	head -c "$3" /dev/urandom >"$T/kept.$fp_n" || hard_error "urandom"
	run mcopy -i "$1" "$T/kept.$fp_n" "$2"
	printf '%s\t%s\t%s\n' "$fp_n" "$1" "$2" >>"$T/kept.list"
}

# last_kept: the local copy of the data of the last put_file.
last_kept() {
	echo "$T/kept.$(cat "$T/kept.count")"
}

# check_kept IMG [AS]: the files put_file put into IMG (or into AS, of
# which IMG is a copy) are unchanged.
check_kept() {
	[ -f "$T/kept.list" ] || return 0
	while IFS='	' read -r fp_n fp_img fp_path; do
		[ "$fp_img" = "${2:-$1}" ] || continue
		mtype -i "$1" "$fp_path" >"$T/kept.got" 2>&1 ||
			fail "pre-existing $fp_path unreadable"
		cmp "$T/kept.got" "$T/kept.$fp_n" >/dev/null 2>&1 ||
			fail "pre-existing $fp_path changed"
	done <"$T/kept.list"
}

# le IMG OFFSET LEN: little-endian unsigned integer at OFFSET.
le() {
	od -An -tu1 -v -j "$2" -N "$3" "$1" | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END { v = 0; for (i = n - 1; i >= 0; i--) v = v * 256 + b[i]; printf "%.0f\n", v }'
}

# put_bytes IMG OFFSET OCTAL-ESCAPES: overwrite bytes in place.
put_bytes() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null ||
		hard_error "dd failed"
}

# put_lfn_units IMG OFF [UNIT...]: the 13 units of the long-name slot at
# byte OFF: the UNITs given (4 hex digits each, "002e"), then 0x0000 and
# 0xFFFF padding, as writers end a name.
put_lfn_units() {
	fp_pi=$1 fp_po=$2 fp_pend=0
	shift 2
	for fp_pa in 1 3 5 7 9 14 16 18 20 22 24 28 30; do
		if [ $# -gt 0 ]; then
			fp_pu=$1
			shift
		elif [ "$fp_pend" = 0 ]; then
			fp_pu=0000 fp_pend=1
		else
			fp_pu=ffff
		fi
		put_bytes "$fp_pi" $((fp_po + fp_pa)) "$(printf '\\%03o\\%03o' \
			$((0x${fp_pu#??})) $((0x${fp_pu%??})))"
	done
}

# geom IMG: read the BPB into G_* variables:
#   G_BPS bytes/sector, G_SPC sectors/cluster, G_CLUS bytes/cluster,
#   G_RSVD reserved sectors, G_NFATS, G_ROOTENT, G_FATSZ sectors/FAT,
#   G_TOTSEC, G_FAT_OFF byte offset of FAT 0, G_ROOT_OFF byte offset of the
#   FAT12/16 root, G_DATA_OFF byte offset of cluster 2, G_NCLUS data
#   clusters, G_BITS 12/16/32, G_ROOTCLUS (FAT32), G_EXTFLAGS (FAT32).
geom() {
	set -- "$1" $(od -An -tu1 -v -N 48 "$1")
	[ $# -eq 49 ] || hard_error "geom: cannot read the boot sector of $1"
	shift
	G_BPS=$((${12} + 256 * ${13}))
	G_SPC=${14}
	G_RSVD=$((${15} + 256 * ${16}))
	G_NFATS=${17}
	G_ROOTENT=$((${18} + 256 * ${19}))
	G_TOTSEC=$((${20} + 256 * ${21}))
	G_FATSZ=$((${23} + 256 * ${24}))
	if [ "$G_TOTSEC" -eq 0 ]; then
		G_TOTSEC=$((${33} + 256 * ${34} + 65536 * ${35} + 16777216 * ${36}))
	fi
	G_ROOTCLUS=0 G_EXTFLAGS=0
	if [ "$G_FATSZ" -eq 0 ]; then
		G_FATSZ=$((${37} + 256 * ${38} + 65536 * ${39} + 16777216 * ${40}))
		G_EXTFLAGS=$((${41} + 256 * ${42}))
		G_ROOTCLUS=$((${45} + 256 * ${46} + 65536 * ${47} + 16777216 * ${48}))
	fi
	[ "$G_BPS" -ge 512 ] && [ "$G_SPC" -ge 1 ] && [ "$G_FATSZ" -ge 1 ] ||
		hard_error "geom: $1 has no sane BPB"
	G_CLUS=$((G_BPS * G_SPC))
	G_FAT_OFF=$((G_RSVD * G_BPS))
	G_ROOT_OFF=$(((G_RSVD + G_NFATS * G_FATSZ) * G_BPS))
	fp_rootsec=$(((G_ROOTENT * 32 + G_BPS - 1) / G_BPS))
	G_DATA_SEC=$((G_RSVD + G_NFATS * G_FATSZ + fp_rootsec))
	G_DATA_OFF=$((G_DATA_SEC * G_BPS))
	G_NCLUS=$(((G_TOTSEC - G_DATA_SEC) / G_SPC))
	if [ "$G_NCLUS" -lt 4085 ]; then
		G_BITS=12
	elif [ "$G_NCLUS" -lt 65525 ]; then
		G_BITS=16
	else
		G_BITS=32
	fi
}

# fat_get IMG CL [COPY]: the FAT entry of cluster CL in FAT copy COPY (0);
# call geom IMG first.
fat_get() {
	fp_base=$((G_FAT_OFF + ${3:-0} * G_FATSZ * G_BPS))
	case $G_BITS in
	12)
		fp_v=$(le "$1" $((fp_base + $2 * 3 / 2)) 2)
		if [ $(($2 % 2)) -eq 1 ]; then
			echo $((fp_v >> 4))
		else
			echo $((fp_v & 4095))
		fi
		;;
	16) le "$1" $((fp_base + $2 * 2)) 2 ;;
	32) echo $(($(le "$1" $((fp_base + $2 * 4)) 4) & 268435455)) ;;
	esac
}

# fat_free_count IMG: the free entries (0) of FAT copy 0 for clusters
# 2 .. G_NCLUS + 1, counted with an own decoder (od and awk).
fat_free_count() {
	geom "$1"
	case $G_BITS in
	12) fp_w=1 ;;
	16) fp_w=2 ;;
	32) fp_w=4 ;;
	esac
	dd if="$1" bs="$G_BPS" skip="$G_RSVD" count="$G_FATSZ" 2>/dev/null |
		od -An -v --endian=little -tu$fp_w | awk -v bits="$G_BITS" \
		-v max=$((G_NCLUS + 1)) '
	bits == 12 { for (i = 1; i <= NF; i++) b[n++] = $i; next }
	{
		for (i = 1; i <= NF; i++) {
			if (c >= 2 && c <= max && $i % 268435456 == 0)
				f++
			c++
		}
	}
	END {
		if (bits == 12)
			for (c = 2; c <= max; c++) {
				o = int(c * 3 / 2); v = b[o] + 256 * b[o + 1]
				v = (c % 2) ? int(v / 16) : v % 4096
				if (v == 0) f++
			}
		print f + 0
	}'
}

# fat_chain IMG START [COPY]: follow FAT copy COPY (default 0) from START
# (own decoder, independent of mtools), one cluster a line.
fat_chain() {
	geom "$1"
	dd if="$1" bs="$G_BPS" skip=$((G_RSVD + ${3:-0} * G_FATSZ)) \
		count="$G_FATSZ" 2>/dev/null | od -An -tu1 -v | awk -v bits="$G_BITS" \
		-v start="$2" -v max="$G_NCLUS" '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function get(c,  o, v) {
		if (bits == 12) {
			o = int(c * 3 / 2); v = b[o] + 256 * b[o + 1]
			return (c % 2) ? int(v / 16) : v % 4096
		}
		if (bits == 16) return b[2 * c] + 256 * b[2 * c + 1]
		o = 4 * c
		return (b[o] + 256 * b[o + 1] + 65536 * b[o + 2] + 16777216 * (b[o + 3] % 16))
	}
	END {
		c = start
		while (c >= 2 && c < max + 2 && k++ <= max) { print c; c = get(c) }
	}'
}

# fat_copy IMG N OUT: extract FAT copy N.
fat_copy() {
	geom "$1"
	dd if="$1" bs="$G_BPS" skip=$((G_RSVD + $2 * G_FATSZ)) \
		count="$G_FATSZ" of="$3" 2>/dev/null || hard_error "dd failed"
}

# fat_copies_equal IMG: every FAT copy equals the first (status only).
fat_copies_equal() {
	geom "$1"
	dd if="$1" bs="$G_BPS" skip="$G_RSVD" count="$G_FATSZ" \
		of="$T/fat.0" 2>/dev/null || hard_error "dd failed"
	fp_i=1
	while [ "$fp_i" -lt "$G_NFATS" ]; do
		dd if="$1" bs="$G_BPS" skip=$((G_RSVD + fp_i * G_FATSZ)) \
			count="$G_FATSZ" of="$T/fat.i" 2>/dev/null ||
			hard_error "dd failed"
		cmp "$T/fat.0" "$T/fat.i" >/dev/null 2>&1 || {
			echo "FAT copy $fp_i differs from FAT 0" >&2
			return 1
		}
		fp_i=$((fp_i + 1))
	done
	return 0
}

# dump_clusters IMG OUT < clusters: concatenate the raw data of the clusters.
dump_clusters() {
	geom "$1"
	: >"$2"
	while read -r fp_c; do
		dd if="$1" bs="$G_BPS" count="$G_SPC" \
			skip=$((G_DATA_SEC + (fp_c - 2) * G_SPC)) 2>/dev/null \
			>>"$2" || hard_error "dd failed"
	done
}

# dump_dir IMG ::DIR OUT: the raw bytes of a directory (root included).
dump_dir() {
	geom "$1"
	case $2 in
	:: | ::/)
		if [ "$G_BITS" -eq 32 ]; then
			fat_chain "$1" "$G_ROOTCLUS" >"$T/dir.chain"
		else
			dd if="$1" bs="$G_BPS" skip=$((G_ROOT_OFF / G_BPS)) \
				count=$((G_ROOTENT * 32 / G_BPS)) of="$3" \
				2>/dev/null || hard_error "dd failed"
			return 0
		fi
		;;
	*)
		chain_clusters "$1" "$2" >"$T/dir.chain" || exit 1
		;;
	esac
	dump_clusters "$1" "$3" <"$T/dir.chain"
}

# dir_entries IMG ::DIR: one line for every used 32-byte entry:
#   INDEX NAME11-HEX ATTR NTRES CLUSTER SIZE TIME DATE PREVATTR
# numbers in decimal, NAME11-HEX as 22 hex digits; PREVATTR is the attribute
# byte of the entry before (-1 for the first); deleted entries are left out.
dir_entries() {
	dump_dir "$1" "$2" "$T/dir.raw"
	od -An -tx1 -v "$T/dir.raw" | tr -s ' \n' '\n\n' | grep . | awk '
	function h(s) { return index("0123456789abcdef", substr(s, 1, 1)) * 16 - 17 + index("0123456789abcdef", substr(s, 2, 1)) }
	{ b[n++] = $1 }
	END {
		prev = -1
		for (e = 0; e * 32 < n; e++) {
			o = e * 32
			if (b[o] == "00") break
			attr = h(b[o + 11])
			if (b[o] != "e5") {
				name = ""
				for (i = 0; i < 11; i++) name = name b[o + i]
				cl = h(b[o + 26]) + 256 * h(b[o + 27]) + 65536 * h(b[o + 20]) + 16777216 * h(b[o + 21])
				sz = h(b[o + 28]) + 256 * h(b[o + 29]) + 65536 * h(b[o + 30]) + 16777216 * h(b[o + 31])
				tm = h(b[o + 22]) + 256 * h(b[o + 23])
				dt = h(b[o + 24]) + 256 * h(b[o + 25])
				printf "%d %s %d %d %d %.0f %d %d %d\n", e, name, attr, h(b[o + 12]), cl, sz, tm, dt, prev
			}
			prev = (b[o] == "e5") ? -1 : attr
		}
	}'
}

# name11_hex "NAME    EXT": the 11-byte short name in hex as dir_entries
# prints it.
name11_hex() {
	printf '%-11.11s' "$1" | od -An -tx1 -v | tr -d ' \n'
}

# short_entry IMG ::DIR "NAME    EXT": the dir_entries line of that short
# entry (fails unless exactly one).
short_entry() {
	fp_h=$(name11_hex "$3")
	dir_entries "$1" "$2" | awk -v h="$fp_h" '$2 == h { print; n++ }
		END { exit n != 1 }' || fail "no unique short entry '$3' in $2"
}

# free_bytes IMG: free space as mdir reports it.
free_bytes() {
	mdir -i "$1" :: >"$T/mdir.out" 2>&1 || fail "mdir failed on $1"
	fp_fb=$(grep 'bytes free' "$T/mdir.out" | tr -cd '0-9')
	[ -n "$fp_fb" ] || fail "cannot read free space of $1"
	echo "$fp_fb"
}

# dirty_free IMG [MAX_KIB]: fill (up to MAX_KIB of) the free clusters with
# 0xA5 bytes, so that missing zeroing shows up.  Goes through mtools, which
# leaves one deleted entry in the root.
dirty_free() {
	fp_fb=$(free_bytes "$1") || exit 1
	fp_max=$((${2:-65536} * 1024))
	[ "$fp_fb" -le "$fp_max" ] || fp_fb=$fp_max
	tr '\000' '\245' </dev/zero | head -c "$fp_fb" >"$T/garbage"
	run mcopy -i "$1" "$T/garbage" ::GARBAGE.TMP
	run mdel -i "$1" ::GARBAGE.TMP
	rm -f "$T/garbage"
}

# listing IMG ::DIR: the full names in a directory (mdir -b), one a line,
# without the directory part; subdirectories end in '/'.
listing() {
	mdir -b -i "$1" "$2" >"$T/mdir.out" 2>&1 || {
		cat "$T/mdir.out" >&2
		fail "mdir -b failed on $2"
	}
	awk '{
		d = sub(/\/$/, "")
		sub(/^.*\//, "")
		print $0 (d ? "/" : "")
	}' "$T/mdir.out"
}

# fsck_says IMG: what fsck.fat -n reports, without its version and
# summary lines (to compare an image that is damaged on purpose before and
# after a write)
fsck_says() {
	fsck.fat -n "$1" 2>&1 | grep -v -e '^fsck.fat ' -e ': [0-9]* files, '
}

# fs_ok IMG: fsck_clean where fsck.fat can check the image (1 or 2 FATs);
# with more FATs (fsck.fat 4.2 refuses them) mdir must read the image and
# fatprealloc --verify find no errors.  The FAT copies must be equal in
# either case.
fs_ok() {
	geom "$1"
	if [ "$G_NFATS" -le 2 ]; then
		fsck_clean "$1"
	else
		mdir -/ -a -i "$1" :: >"$T/mdir.out" 2>&1 || {
			cat "$T/mdir.out" >&2
			fail "mdir cannot read $1"
		}
		verify_ok "$1"
	fi
	fat_copies_equal "$1" || fail "FAT copies of $1 differ"
}

# basic_suite IMG BIG: on a fresh image, fill the free space with garbage,
# add pre-existing files, then preallocate new files of 0, 1, cluster-1,
# cluster, cluster+1 and BIG bytes (BIG 0: left out) in the root and in a
# subdirectory, one call each, and check them all.
basic_suite() {
	fp_bimg=$1
	geom "$fp_bimg"
	fp_c=$G_CLUS
	note "FAT$G_BITS, $G_BPS-byte sectors, $fp_c-byte clusters, $G_NFATS FATs"
	dirty_free "$fp_bimg" 16384
	run mmd -i "$fp_bimg" ::sub
	put_file "$fp_bimg" ::old1.bin 3000
	put_file "$fp_bimg" "::sub/Old Long Name.dat" $((fp_c * 3 + 17))
	fp_sizes="0 1 $((fp_c - 1)) $fp_c $((fp_c + 1))"
	[ "$2" -gt 0 ] && fp_sizes="$fp_sizes $2"
	fp_i=0
	for fp_s in $fp_sizes; do
		fp_i=$((fp_i + 1))
		fp_ok "$fp_bimg" "::f$fp_i.bin" "$fp_s"
		fp_ok "$fp_bimg" "::/sub/g$fp_i.bin" "$fp_s"
	done
	fs_ok "$fp_bimg"
	fp_i=0
	for fp_s in $fp_sizes; do
		fp_i=$((fp_i + 1))
		check_new "$fp_bimg" "::f$fp_i.bin" "$fp_s"
		check_new "$fp_bimg" "::sub/g$fp_i.bin" "$fp_s"
	done
	check_kept "$fp_bimg"
}

# root_entry_offset IMG "NAME    EXT": byte offset of that short entry in a
# FAT12/16 root directory.
root_entry_offset() {
	geom "$1"
	[ "$G_BITS" -ne 32 ] || hard_error "root_entry_offset: FAT32 root"
	fp_e=$(short_entry "$1" :: "$2" | cut -d' ' -f1) || exit 1
	echo $((G_ROOT_OFF + fp_e * 32))
}

# le32_octal N: N as 4 little-endian bytes in printf octal escapes.
le32_octal() {
	printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) \
		$((($1 >> 16) & 255)) $((($1 >> 24) & 255))
}

# dirent_offset IMG ::DIR "NAME    EXT": byte offset of that short entry in
# any directory (the root of every FAT type included).  Read it before
# damaging the image: subdirectories are followed with mshowfat.
dirent_offset() {
	fp_e=$(short_entry "$1" "$2" "$3" | cut -d' ' -f1) || exit 1
	geom "$1"
	case $2 in
	:: | ::/)
		if [ "$G_BITS" -ne 32 ]; then
			echo $((G_ROOT_OFF + fp_e * 32))
			return 0
		fi
		fat_chain "$1" "$G_ROOTCLUS" >"$T/dir.chain"
		;;
	*)
		chain_clusters "$1" "$2" >"$T/dir.chain" || exit 1
		;;
	esac
	fp_c=$(sed -n "$((fp_e * 32 / G_CLUS + 1))p" "$T/dir.chain")
	[ -n "$fp_c" ] || hard_error "dirent_offset: entry $fp_e past $2"
	echo $((G_DATA_OFF + (fp_c - 2) * G_CLUS + fp_e * 32 % G_CLUS))
}

# cluster_off CL: byte offset of cluster CL (call geom first).
cluster_off() {
	echo $((G_DATA_OFF + ($1 - 2) * G_CLUS))
}

# set_start IMG ENTRY_OFF CL: make the entry at ENTRY_OFF start at cluster
# CL (the high word only on FAT32).
set_start() {
	geom "$1"
	put_bytes "$1" $(($2 + 26)) \
		"$(printf '\\%03o\\%03o' $(($3 & 255)) $((($3 >> 8) & 255)))"
	if [ "$G_BITS" -eq 32 ]; then
		put_bytes "$1" $(($2 + 20)) "$(printf '\\%03o\\%03o' \
			$((($3 >> 16) & 255)) $((($3 >> 24) & 255)))"
	fi
}

# fat_set IMG CL VALUE: set the FAT entry of CL to VALUE in every copy
# (FAT12 keeps the other nibble, FAT32 the top 4 bits).
fat_set() {
	geom "$1"
	fp_i=0
	while [ "$fp_i" -lt "$G_NFATS" ]; do
		fp_base=$((G_FAT_OFF + fp_i * G_FATSZ * G_BPS))
		case $G_BITS in
		12)
			fp_o=$((fp_base + $2 * 3 / 2))
			fp_v=$(le "$1" "$fp_o" 2)
			if [ $(($2 % 2)) -eq 1 ]; then
				fp_v=$(((fp_v & 15) | ($3 << 4)))
			else
				fp_v=$(((fp_v & 61440) | $3))
			fi
			fp_n=2
			;;
		16) fp_o=$((fp_base + $2 * 2)) fp_v=$3 fp_n=2 ;;
		32)
			fp_o=$((fp_base + $2 * 4))
			fp_v=$((($(le "$1" "$fp_o" 4) & 4026531840) | $3))
			fp_n=4
			;;
		esac
		if [ "$fp_n" -eq 2 ]; then
			put_bytes "$1" "$fp_o" "$(printf '\\%03o\\%03o' \
				$((fp_v & 255)) $(((fp_v >> 8) & 255)))"
		else
			put_bytes "$1" "$fp_o" "$(le32_octal "$fp_v")"
		fi
		fp_i=$((fp_i + 1))
	done
}

# findings IMG: the problems --verify reports, one "code path" a line,
# sorted, numbers left out (for comparing two states of an image).
findings() {
	"$FATPREALLOC" --verify --json "$1" >"$T/findings.json" 2>&1
	jq -r '.findings[] | "\(.code) \(.path)"' "$T/findings.json" |
		sort || fail "cannot read --verify --json of $1"
}

# --- The Linux vfat driver as a reader, through User Mode Linux ---------
#
# need_uml: skip (77) unless User Mode Linux (Debian: user-mode-linux),
# its fat, vfat and nls modules, and busybox (for insmod, mount and dmesg
# in the guest, which has no kmod) are installed.  Sets UML_LINUX,
# UML_BUSYBOX and UML_MODDIR.  FP_UML_MODULES overrides the module tree
# (default /usr/lib/uml/modules).
need_uml() {
	UML_LINUX=$(command -v linux.uml || command -v linux) ||
		skip "no User Mode Linux (linux.uml; Debian package user-mode-linux)"
	UML_BUSYBOX=$(command -v busybox) ||
		skip "busybox not found (Debian package busybox-static)"
	fp_uv=$("$UML_LINUX" --version 2>/dev/null | head -n 1)
	[ -n "$fp_uv" ] || skip "$UML_LINUX --version prints no version"
	UML_MODDIR=${FP_UML_MODULES:-/usr/lib/uml/modules}/$fp_uv/kernel/fs
	for fp_m in fat/fat.ko fat/vfat.ko nls/nls_cp437.ko nls/nls_iso8859-1.ko; do
		[ -r "$UML_MODDIR/$fp_m" ] ||
			skip "no UML module $UML_MODDIR/$fp_m"
	done
}

# uml_run IMG [PART] <BODY: boot User Mode Linux with IMG as /dev/ubda,
# mount /dev/ubda[PART] as vfat (-o utf8) and run the shell
# commands BODY inside the guest, then unmount and power off.  The guest's
# root is the host's / (hostfs) and its init is a script in $T, so BODY
# runs the host's programs and sees $T; it is given MNT (the mount point)
# and T, every variable named in UML_VARS with its value here, and the
# g_* helpers below.  BODY fails by exiting non-zero (g_fail).
#
# Afterwards $T/uml/out holds BODY's output, $T/uml/dmesg the guest's
# kernel log and $T/uml/console everything UML printed; the first two go
# to the test's log.  Returns 0 when the guest finished, BODY exited 0
# and the kernel log holds no "FAT-fs" message; otherwise returns 1 with
# UML_WHY set to mount (the kernel refused the volume), body, umount,
# fat-fs or unfinished (the guest hung or crashed; it is killed after
# FP_UML_TIMEOUT seconds, default 60).  Exits 77 (skip) when the guest
# did not start the script at all or could not load the modules: UML
# cannot run here.  Call need_uml first.
uml_run() {
	fp_ui=$1 fp_up=${2:-}
	fp_r=$T/uml
	rm -rf "$fp_r"
	mkdir -p "$fp_r/mnt" "$fp_r/tmp" || hard_error "mkdir $fp_r"
	cat >"$fp_r/body" || hard_error "cannot write $fp_r/body"
	{
		echo '#!/bin/sh'
		echo "# init of the UML guest for $fp_ui"
		printf "T='%s' MNT='%s' R='%s' B='%s' M='%s'\n" "$T" "$fp_r/mnt" \
			"$fp_r" "$UML_BUSYBOX" "$UML_MODDIR"
		for fp_v in ${UML_VARS:-}; do
			eval "printf \"%s='%s'\\n\" \"\$fp_v\" \"\$$fp_v\""
		done
		echo "LC_ALL=$LC_ALL"
		cat <<'GUEST'
PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
export PATH LC_ALL T MNT
echo booted >"$R/booted"
$B mount -t proc proc /proc
for m in fat/fat.ko fat/vfat.ko nls/nls_cp437.ko nls/nls_iso8859-1.ko; do
	$B insmod "$M/$m" >>"$R/insmod" 2>&1 ||
		echo "insmod $M/$m failed" >>"$R/nomod"
done
# g_fail MSG; g_size FILE N; g_zero FILE [FROM] (all zero bytes from
# FROM on); g_new FILE N (N bytes, all zero); g_same FILE HOSTFILE;
# g_starts FILE HOSTFILE (HOSTFILE's bytes, then zeros).  Each program
# run costs about 10 ms in the guest: the helpers run few.
g_fail() { echo "FAIL (guest): $*"; exit 1; }
g_size() {
	g_s=$(stat -c %s "$1") || g_fail "cannot stat $1"
	[ "$g_s" = "$2" ] || g_fail "$1: size $g_s, expected $2"
}
g_zero() {
	g_s=$(stat -c %s "$1") || g_fail "cannot stat $1"
	g_f=${2:-0}
	[ "$g_s" -gt "$g_f" ] || return 0
	cmp -i "$g_f:0" -n $((g_s - g_f)) "$1" /dev/zero ||
		g_fail "$1: not zero after byte $g_f"
}
g_new() {
	g_size "$1" "$2"
	[ "$2" -eq 0 ] || cmp -n "$2" "$1" /dev/zero ||
		g_fail "$1: not all zero"
}
g_same() { cmp "$1" "$2" || g_fail "$1 differs from $2"; }
g_starts() {
	g_n=$(stat -c %s "$2") || g_fail "cannot stat $2"
	cmp -n "$g_n" "$1" "$2" || g_fail "$1 does not start with $2"
	g_zero "$1" "$g_n"
}
GUEST
		echo "if [ ! -e \"\$R/nomod\" ]; then"
		echo "	if \$B mount -t vfat -o utf8 /dev/ubda$fp_up \"\$MNT\" >\"\$R/mount\" 2>&1; then"
		cat <<'GUEST'
		(. "$R/body") >"$R/out" 2>&1
		echo $? >"$R/status"
		$B umount "$MNT" >"$R/umount" 2>&1 || echo failed >>"$R/umount"
	else
		echo failed >>"$R/mount"
	fi
fi
$B dmesg >"$R/dmesg"
echo done >"$R/done"
$B poweroff -f
GUEST
	} >"$fp_r/init" || hard_error "cannot write $fp_r/init"
	chmod +x "$fp_r/init"
	fp_ut=${FP_UML_TIMEOUT:-60}
	echo "+ linux ubda=$fp_ui init=$fp_r/init (mount /dev/ubda$fp_up)"
	fp_t0=$(date +%s.%N)
	# FP_UML_PRELOAD (the harness sets it): tests/uml/xstate.c
	fp_pre=
	[ ! -r "${FP_UML_PRELOAD:-}" ] || fp_pre=$FP_UML_PRELOAD
	TMPDIR=$fp_r/tmp LD_PRELOAD=$fp_pre \
		timeout -k 5 "$fp_ut" "$UML_LINUX" mem=64M \
		root=/dev/root rootfstype=hostfs hostfs=/ rw \
		uml_dir="$fp_r" init="$fp_r/init" ubda="$fp_ui" \
		con=null con0=null,fd:1 </dev/null >"$fp_r/console" 2>&1
	fp_urc=$?
	note "UML exit $fp_urc after $(awk -v a="$fp_t0" -v b="$(date +%s.%N)" \
		'BEGIN { printf "%.1f", b - a }') s"
	if [ ! -e "$fp_r/booted" ]; then
		tail -n 20 "$fp_r/console" >&2
		skip "User Mode Linux did not start its init (exit $fp_urc)"
	fi
	if [ -e "$fp_r/nomod" ]; then
		cat "$fp_r/nomod" "$fp_r/insmod" >&2
		skip "User Mode Linux cannot load its FAT modules"
	fi
	[ -e "$fp_r/out" ] && sed 's/^/  guest: /' "$fp_r/out"
	fp_dm=$fp_r/dmesg
	[ -e "$fp_dm" ] || fp_dm=$fp_r/console
	grep -e 'FAT-fs' -e 'ubda' "$fp_dm" >"$fp_r/kernel"
	sed -n 's/^/  kernel: /; 1,20p' "$fp_r/kernel"
	fp_un=$(wc -l <"$fp_r/kernel")
	[ "$fp_un" -le 20 ] || note "and $((fp_un - 20)) more lines in $fp_dm"
	UML_WHY=
	if [ ! -e "$fp_r/done" ]; then
		UML_WHY=unfinished
		tail -n 30 "$fp_r/console" >&2
	elif grep -q 'FAT-fs' "$fp_dm"; then
		UML_WHY=fat-fs
	elif [ ! -e "$fp_r/status" ]; then
		UML_WHY=mount
		cat "$fp_r/mount" >&2
	elif [ "$(cat "$fp_r/status")" != 0 ]; then
		UML_WHY=body
	elif [ -s "$fp_r/umount" ]; then
		UML_WHY=umount
		cat "$fp_r/umount" >&2
	fi
	[ -z "$UML_WHY" ] && return 0
	echo "uml_run: $UML_WHY" >&2
	return 1
}

# --- Copies (SRC ::DEST) -----------------------------------------------
#
# copied_ok IMG ::DEST SRCDIR: mdir -b lists under ::DEST exactly the names
# of the tree at SRCDIR (links followed), and every file reads back
# through mtype byte for byte.
copied_ok() {
	fp_ci=$1 fp_cp=${2%/}/ fp_cs=$3
	(cd "$fp_cs" && find -L . -mindepth 1 \( -type d -printf '%P/\n' \
		-o -printf '%P\n' \)) | LC_ALL=C sort >"$T/copied.want"
	mdir -b -/ -i "$fp_ci" "$fp_cp" >"$T/copied.mdir" 2>&1 || {
		cat "$T/copied.mdir" >&2
		fail "mdir -b -/ failed on $fp_cp"
	}
	awk -v p="$fp_cp" 'index($0, p) == 1 { print substr($0, length(p) + 1) }' \
		"$T/copied.mdir" | LC_ALL=C sort >"$T/copied.got"
	cmp -s "$T/copied.want" "$T/copied.got" || {
		diff "$T/copied.want" "$T/copied.got" >&2
		fail "mdir lists other names under $fp_cp than $fp_cs holds"
	}
	while IFS= read -r fp_cf; do
		case $fp_cf in */) continue ;; esac
		mtype -i "$fp_ci" "$fp_cp$fp_cf" >"$T/copied.data" 2>"$T/mtype.err" || {
			cat "$T/mtype.err" >&2
			fail "mtype failed on $fp_cp$fp_cf"
		}
		cmp "$T/copied.data" "$fp_cs/$fp_cf" >&2 ||
			fail "$fp_cp$fp_cf differs from $fp_cs/$fp_cf"
	done <"$T/copied.want"
}

# make_tree DIR CLUS [REVERSE]: a boot-partition-like tree in DIR: long,
# mixed-case and UTF-8 names, empty and sparse files, sizes around the
# cluster size CLUS, a hard link, a symbolic link, an empty directory, all
# with mtime 1600000000; with REVERSE the same tree made in the other order.
make_tree() {
	fp_td=$1 fp_tc=$2 fp_order="1 2 3 4 5 6 7"
	[ -n "${3:-}" ] && fp_order="7 6 5 4 3 2 1"
	if [ -n "${3:-}" ]; then
		mkdir -p "$fp_td/empty.d" "$fp_td/dtbs/overlays"
	else
		mkdir -p "$fp_td/dtbs/overlays" "$fp_td/empty.d"
	fi || hard_error "mkdir in $fp_td"
	for fp_tn in $fp_order; do
		case $fp_tn in
		1) fp_tf=zImage ;;
		2) fp_tf=dtbs/bcm2711-rpi-4-b.dtb ;;
		3) fp_tf=dtbs/A.DTB ;;
		4) fp_tf="dtbs/overlays/Overlay Long Name.dtbo" ;;
		5) fp_tf="Mixed Case.TXT" ;;
		6) fp_tf="été.txt" ;;
		7) fp_tf="日本語テキスト.txt" ;;
		esac
		awk -v n="$fp_tn" -v c="$fp_tc" 'BEGIN {
			srand(n); for (i = 0; i < n * c / 3 + n; i++)
				printf "%c", 32 + int(rand() * 90) }' \
			>"$fp_td/$fp_tf" || hard_error "cannot write $fp_tf"
	done
	: >"$fp_td/empty"
	head -c "$fp_tc" /dev/zero | tr '\0' 'x' >"$fp_td/cl1"
	head -c $((fp_tc + 1)) /dev/zero | tr '\0' 'y' >"$fp_td/cl2"
	truncate -s $((fp_tc * 40)) "$fp_td/sparse.img"
	printf 'end' >>"$fp_td/sparse.img"
	ln "$fp_td/zImage" "$fp_td/zImage.hard" || hard_error ln
	ln -s zImage "$fp_td/current" || hard_error "ln -s"
	find "$fp_td" -exec touch -h -d @1600000000 {} + ||
		hard_error "touch"
}
