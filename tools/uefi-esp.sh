#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
#
# tools/uefi-esp.sh [BUILD_DIR] [CASE...]: does UEFI firmware itself read
# the ESPs that --verify --profile uefi-esp calls sound, and which of the
# ones it warns about?  For each CASE a GPT disk with one EFI system
# partition is made with sfdisk, the ESP in it with fatprealloc --mkfs
# --profile uefi-esp (the clean case) or mkfs.fat (the broken ones, which
# --mkfs --profile refuses), a startup.nsh and a file go into it with
# fatprealloc, and Debian's OVMF boots it under qemu-system-x86_64
# without a network card; the UEFI shell runs startup.nsh, which prints
# the file on the serial console, and the script looks for its text there.
#
#   good          fatprealloc --mkfs --profile uefi-esp -P 1, with the
#                 two files in the same run: FAT32, 512-byte sectors,
#                 342 MiB, profile-clean
#   sector4k      FAT32 of 4096-byte sectors on a 512-byte disk
#                 (esp-sector-size)
#   few-clusters  FAT32 of fewer than 65525 clusters (fat32-clusters,
#                 systemd#36370)
#   fat16         FAT16 (esp-fat32: the UEFI specification allows it on
#                 removable media only)
#
# Not run by CI: it needs the ovmf and qemu-system-x86 packages and takes
# about 30 s a case under TCG (UEFI_ACCEL=kvm where KVM works), up to
# UEFI_TIMEOUT (240) s for a case OVMF does not read.  Prints, a line a
# case, the profile rules broken and whether OVMF read the ESP.  Exit 0
# unless the profile-clean ESP was not read (1); 77 when a tool is
# missing.  A case the profile warns about that OVMF reads anyway is no
# failure: the rules are about UEFI firmware in general (docs/PROFILES.md).
set -u

BUILD=${1:-build}
[ $# -gt 0 ] && shift
CASES=${*:-good sector4k few-clusters fat16}
FP=$BUILD/src/fatprealloc
CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
VARS=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}
TIMEOUT=${UEFI_TIMEOUT:-240}
MSG="fatprealloc-esp-read-by-uefi"

for t in qemu-system-x86_64 sfdisk mkfs.fat python3 timeout; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "uefi-esp.sh: $t not found" >&2
		exit 77
	}
done
for f in "$CODE" "$VARS" "$FP"; do
	[ -r "$f" ] || {
		echo "uefi-esp.sh: $f not found" >&2
		exit 77
	}
done

T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

# make_disk DISK CASE: a 400 MiB GPT disk, partition 1 an ESP from 1 MiB.
make_disk() {
	rm -f "$1"
	truncate -s 400M "$1" || return 1
	printf 'label: gpt\nstart=2048, size=700000, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n' |
		sfdisk -q "$1" || return 1
	printf '%s\r\n' "$MSG" >"$T/hello.txt"
	printf 'echo -off\r\nfs0:\r\ntype hello.txt\r\nreset -s\r\n' \
		>"$T/startup.nsh"
	case $2 in
	good)
		"$FP" -q --mkfs --profile uefi-esp -P 1 "$1" \
			"$T/startup.nsh" ::/startup.nsh "$T/hello.txt" \
			::/hello.txt
		return ;;
	sector4k) set -- "$1" -F 32 -S 4096 -s 1 ;;
	few-clusters) set -- "$1" -F 32 -S 512 -s 16 ;;
	fat16) set -- "$1" -F 16 -S 512 -s 16 ;;
	*) echo "uefi-esp.sh: unknown case $2" >&2; return 1 ;;
	esac
	fp_d=$1
	shift
	# --offset counts sectors of -S's size: 1 MiB, the partition's start
	mkfs.fat --invariant "$@" --offset $((1048576 / $4)) "$fp_d" 350000 \
		>"$T/mkfs.out" 2>&1 || { cat "$T/mkfs.out" >&2; return 1; }
	# fatprealloc, as mtools takes a FAT32 of too few clusters for FAT16
	"$FP" -q -P 1 "$fp_d" "$T/startup.nsh" ::/startup.nsh \
		"$T/hello.txt" ::/hello.txt || return 1
}

# boot DISK LOG: OVMF on DISK, the serial console into LOG.
boot() {
	cp "$VARS" "$T/vars.fd" || return 1
	timeout "$TIMEOUT" qemu-system-x86_64 -machine q35,accel=${UEFI_ACCEL:-tcg} \
		-m 256 -display none -no-reboot -nic none -serial "file:$2" \
		-drive if=pflash,format=raw,readonly=on,file="$CODE" \
		-drive if=pflash,format=raw,file="$T/vars.fd" \
		-drive file="$1",format=raw,if=virtio </dev/null
}

ret=0
for c in $CASES; do
	d=$T/$c.img
	make_disk "$d" "$c" || { echo "$c: could not make the disk" >&2; exit 1; }
	"$FP" --verify --json --profile uefi-esp "$d" >"$T/$c.json"
	rules=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(f["rule"] for f in d["findings"] if f["code"] == "profile") or "-")
' "$T/$c.json")
	start=$(date +%s)
	boot "$d" "$T/$c.serial"
	took=$(($(date +%s) - start))
	if grep -q "$MSG" "$T/$c.serial"; then
		read=yes
	else
		read=no
	fi
	echo "$c: profile rules broken: $rules; OVMF read the ESP: $read (${took}s)"
	if [ "$rules" = - ] && [ "$read" = no ]; then
		echo "$c: the clean ESP was not read; serial console:" >&2
		tr -d '\033' <"$T/$c.serial" | tail -n 20 >&2
		ret=1
	fi
done
exit $ret
