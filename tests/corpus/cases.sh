# cases.sh: the --verify corpus, sourced by tests/img/verify-corpus.test
# after tests/img/lib.sh (POSIX sh).
#
# Every case is a function case_NAME IMG (NAME with '_' for '-') that makes
# its image at IMG from a fresh `mkfs.fat -C --invariant` image, mtools
# (mcopy, mmd) and byte patches (computed from the BPB), and then sets:
#
#   C_CODES  the finding codes --verify must report, sorted, blank-separated
#            ("" for none); the expected exit follows from their severities
#   C_RC     8 for an image that cannot be checked (no codes then)
#   C_PATHS  "CODE:/PATH ..." findings that must carry that path
#   C_XLINK  "/A /B": a cross-link finding must name both owners
#   C_LOST   clusters_lost must be this number
#   C_BAD    clusters_bad must be this number
#   C_DROPPED "CODE:N ...": findings past the cap of 50 a code
#   C_FSCK_OK  an ERE: fsck.fat -n lines matching it are not problems that
#            --verify must report as errors (see C_FSCK_WHY)
#   C_FSCK_WHY why (a by-design warning, or an fsck.fat limitation)
#
# The images are made with SOURCE_DATE_EPOCH set, so a case gives the same
# bytes on every run.  CORPUS_CASES lists the cases in order.

CORPUS_CASES="
clean-fat12 clean-fat16 clean-fat32 clean-fat12-floppy clean-fat12-4k
clean-fat12-straddle clean-last-fat12 clean-fat32-lfn-straddle
clean-fat32-hi4 clean-fat32-nomirror clean-fat32-fsinfo-unknown
clean-bad-clusters-fat16
name-e5-fat16 name-inner-space-fat16 name-high-fat16 end-marker-fat16
keepsize-fat12 keepsize-fat16 keepsize-fat32 keepsize-tool-fat16
boot-backup-fat32 boot-backup-code-fat32
fsinfo-sig-lead-fat32 fsinfo-sig-trail-fat32
fsinfo-free-count-fat32 fsinfo-next-free-fat32
fat-type-fat32
fat-media-fat12 fat-media-fat16 fat-media-fat32
fat-entry1-fat12 fat-entry1-fat16 fat-entry1-fat32
volume-dirty-boot-fat12 volume-dirty-boot-fat16 volume-dirty-fat-fat16
volume-dirty-boot-fat32 volume-dirty-fat-fat32
volume-io-error-fat16 volume-io-error-fat32
fat-bad-entry-reserved-fat16 fat-bad-entry-one-fat12 fat-bad-entry-range-fat32
fat-mismatch-fat12 fat-mismatch-fat16 fat-mismatch-fat32
bad-start-range-fat16 bad-start-one-fat16 bad-start-free-fat12
bad-start-bad-fat32 bad-start-dir-fat16
chain-loop-fat16 chain-loop-fat32 chain-loop-dir-fat16
chain-free-fat12 chain-bad-fat16 chain-range-fat32
cross-link-fat12 cross-link-fat32 cross-link-fat12-4k cross-link-start-fat16
cross-link-root-fat32 cross-link-dir-fat12
chain-short-fat16 chain-short-zero-fat12 chain-short-huge-fat12
dir-size-fat16 dir-no-chain-fat12 dir-no-chain-fat32
dot-missing-fat16 dotdot-wrong-fat12 dot-wrong-fat32 dotdot-rootclus-fat32
dir-cycle-fat16 dir-cycle-fat32 dir-cycle-self-fat12
bad-name-lower-fat32 bad-name-ctrl-fat12 bad-name-qmark-fat16
bad-name-plus-fat16 bad-name-dot-fat32 bad-name-space-fat12
many-bad-names-fat16
duplicate-name-short-fat16 duplicate-name-long-fat32 duplicate-name-root2-fat32
lfn-orphan-checksum-fat16 lfn-orphan-order-fat32 lfn-orphan-noshort-fat12
lfn-orphan-end-fat16
label-twice-fat12 label-subdir-fat32
lost-chain-fat12 lost-chain-fat16 lost-chain-fat32 lost-chain-fat12-straddle
lost-chain-last-fat12 lost-chain-last-fat16 lost-chain-merge-fat16
lost-chain-loop-fat16
cannot-truncated-fat16 cannot-zero cannot-bpb-fat16
"

SOURCE_DATE_EPOCH=1577836800
export SOURCE_DATE_EPOCH

# fsck.fat lines that a keep-size tail causes (as fsck_keepsize accepts).
C_KEEPSIZE_FSCK='^/|^  File size is [0-9]+ bytes, cluster chain length is > [0-9]+ bytes\.$|^  Truncating file to [0-9]+ bytes\.$|^Free cluster summary wrong \([0-9]+ vs\. really [0-9]+\)$|^  Auto-correcting\.$|^Leaving filesystem unchanged\.$|^$'

# fsck.fat lines about a dirty flag.
C_DIRTY_FSCK='^Dirty bit is set\. Fs was not properly unmounted and some data may be corrupt\.$|^ Automatically removing dirty bit\.$|^Leaving filesystem unchanged\.$|^$'

# ---- helpers -------------------------------------------------------------

# c_geom IMG: geom, but FAT32 whenever BPB_FATSz16 is 0 (as the tool and
# fsck.fat decide), also below 65525 clusters.  G_MAX: the last cluster.
c_geom() {
	geom "$1"
	[ "$(le "$1" 22 2)" -ne 0 ] || G_BITS=32
	G_MAX=$((G_NCLUS + 1))
}

# c_put IMG OFFSET LEN VALUE: store VALUE as LEN little-endian bytes.
c_put() {
	c_ps= c_pk=0
	while [ "$c_pk" -lt "$3" ]; do
		c_ps="$c_ps$(printf '\\%03o' $((($4 >> (8 * c_pk)) & 255)))"
		c_pk=$((c_pk + 1))
	done
	put_bytes "$1" "$2" "$c_ps"
}

# c_text IMG OFFSET TEXT: store TEXT (printf escapes allowed).
c_text() {
	put_bytes "$1" "$2" "$3"
}

# c_setfat IMG CLUSTER VALUE [COPY]: set a FAT entry in every copy (or in
# COPY only).  FAT32 values are stored whole (upper 4 bits included).
c_setfat() {
	c_geom "$1"
	if [ $# -ge 4 ]; then
		c_i=$4 c_n=$(($4 + 1))
	else
		c_i=0 c_n=$G_NFATS
	fi
	while [ "$c_i" -lt "$c_n" ]; do
		c_base=$((G_FAT_OFF + c_i * G_FATSZ * G_BPS))
		case $G_BITS in
		12)
			c_o=$((c_base + $2 * 3 / 2))
			c_v=$(le "$1" "$c_o" 2)
			if [ $(($2 % 2)) -eq 1 ]; then
				c_v=$(((c_v & 15) | (($3 & 4095) << 4)))
			else
				c_v=$(((c_v & 61440) | ($3 & 4095)))
			fi
			c_put "$1" "$c_o" 2 "$c_v"
			;;
		16) c_put "$1" $((c_base + $2 * 2)) 2 "$3" ;;
		32) c_put "$1" $((c_base + $2 * 4)) 4 "$3" ;;
		esac
		c_i=$((c_i + 1))
	done
}

# c_getfat IMG CLUSTER [COPY]: a FAT entry (FAT32: 28 bits).
c_getfat() {
	c_geom "$1"
	fat_get "$1" "$2" "${3:-0}"
}

# c_spare IMG K: the cluster K before the last one, which must be free.
c_spare() {
	c_geom "$1"
	c_sp=$((G_MAX - $2))
	[ "$(fat_get "$1" "$c_sp")" -eq 0 ] || hard_error "cluster $c_sp not free"
	echo "$c_sp"
}

# c_eoc / c_bad IMG: the end-of-chain and bad-cluster values of the type.
c_eoc() {
	c_geom "$1"
	case $G_BITS in 12) echo 4095 ;; 16) echo 65535 ;; 32) echo 268435455 ;; esac
}
c_bad() {
	c_geom "$1"
	case $G_BITS in 12) echo 4087 ;; 16) echo 65527 ;; 32) echo 268435447 ;; esac
}

# c_chain IMG START [COPY]: the chain from START in FAT 0 (or COPY), one
# cluster a line.
c_chain() {
	c_geom "$1"
	c_c=$2 c_k=0
	while [ "$c_c" -ge 2 ] && [ "$c_c" -le "$G_MAX" ] && [ "$c_k" -le 200 ]; do
		echo "$c_c"
		c_c=$(fat_get "$1" "$c_c" "${3:-0}")
		c_k=$((c_k + 1))
	done
}

# c_free_chain IMG START: set every entry of the chain from START to 0.
c_free_chain() {
	c_chain "$1" "$2" >"$T/c.free"
	while read -r c_f; do
		c_setfat "$1" "$c_f" 0
	done <"$T/c.free"
}

# c_first IMG ::PATH: the start cluster of a file or directory (mshowfat).
c_first() {
	chain_clusters "$1" "$2" >"$T/c.first" || exit 1
	c_f=$(head -n 1 "$T/c.first")
	[ -n "$c_f" ] || hard_error "c_first: $2 has no clusters"
	echo "$c_f"
}

# c_clus_off IMG CLUSTER: byte offset of a data cluster.
c_clus_off() {
	c_geom "$1"
	echo $((G_DATA_OFF + ($2 - 2) * G_CLUS))
}

# c_dir_off IMG ::DIR INDEX: byte offset of entry INDEX of a directory.
c_dir_off() {
	c_geom "$1"
	case $2 in
	:: | ::/)
		if [ "$G_BITS" -ne 32 ]; then
			echo $((G_ROOT_OFF + $3 * 32))
			return 0
		fi
		c_chain "$1" "$G_ROOTCLUS" >"$T/c.dchain"
		;;
	*)
		chain_clusters "$1" "$2" >"$T/c.dchain" || exit 1
		;;
	esac
	c_geom "$1"
	c_cl=$(sed -n "$(($3 * 32 / G_CLUS + 1))p" "$T/c.dchain")
	[ -n "$c_cl" ] || hard_error "c_dir_off: $2 has no entry $3"
	echo $((G_DATA_OFF + (c_cl - 2) * G_CLUS + $3 * 32 % G_CLUS))
}

# c_entry IMG ::DIR "NAME    EXT": byte offset of that short entry.
c_entry() {
	c_l=$(short_entry "$1" "$2" "$3") || exit 1
	c_dir_off "$1" "$2" "${c_l%% *}"
}

# c_entry_index IMG ::DIR "NAME    EXT": its index in the directory.
c_entry_index() {
	c_l=$(short_entry "$1" "$2" "$3") || exit 1
	echo "${c_l%% *}"
}

# c_set_start IMG ENTRY-OFFSET CLUSTER / c_set_size IMG ENTRY-OFFSET N
c_set_start() {
	c_put "$1" $(($2 + 26)) 2 $(($3 & 65535))
	c_put "$1" $(($2 + 20)) 2 $(($3 >> 16))
}
c_set_size() {
	c_put "$1" $(($2 + 28)) 4 "$3"
}

# c_fsinfo_fix IMG: on FAT32, make the FSInfo free count the real one
# (after FAT patches that allocate or free clusters).
c_fsinfo_fix() {
	c_geom "$1"
	[ "$G_BITS" -eq 32 ] || return 0
	c_free=$(dd if="$1" bs="$G_BPS" skip="$G_RSVD" count="$G_FATSZ" \
		2>/dev/null | od -An -tu1 -v | awk -v max="$G_MAX" '
		{ for (i = 1; i <= NF; i++) b[n++] = $i }
		END {
			for (c = 2; c <= max; c++) {
				o = 4 * c
				if (b[o] + b[o + 1] + b[o + 2] + b[o + 3] % 16 == 0) f++
			}
			print f + 0
		}')
	c_put "$1" $(($(le "$1" 48 2) * G_BPS + 488)) 4 "$c_free"
}

# c_data N: a file of N bytes of deterministic content, its path printed.
c_data() {
	c_dn=$(($(cat "$T/c.datan" 2>/dev/null || echo 0) + 1))
	echo "$c_dn" >"$T/c.datan"
	awk -v n="$1" -v s="$c_dn" 'BEGIN {
		for (i = 0; i < n; i++) printf "%c", 65 + (i * 7 + s) % 26
	}' >"$T/c.data.$c_dn"
	echo "$T/c.data.$c_dn"
}

# c_file IMG ::PATH BYTES: copy a new file of BYTES bytes in with mcopy.
c_file() {
	c_src=$(c_data "$3")
	run mcopy -i "$1" "$c_src" "$2"
}

# c_mkfs IMG 12|16|32 [mkfs.fat args]: the standard small image of a type
# (FAT12 1 MiB, FAT16 8 MiB with 1 KiB clusters, FAT32 33 MiB with 512 B
# clusters), 2 FATs.
c_mkfs() {
	c_img=$1 c_bits=$2
	shift 2
	case $c_bits in
	12) mkimg "$c_img" 12 1024 "$@" ;;
	16) mkimg "$c_img" 16 8192 -s 2 "$@" ;;
	32) mkimg "$c_img" 32 33792 -s 1 "$@" ;;
	esac
}

# c_populate IMG: some ordinary content: files of several sizes (empty,
# one cluster, many), long and short names, nested directories.
c_populate() {
	c_geom "$1"
	run mmd -i "$1" ::DIR1 ::DIR1/SUB ::"Long Directory Name"
	c_file "$1" ::EMPTY.TXT 0
	c_file "$1" ::ONE.BIN 1
	c_file "$1" ::CLUS.BIN "$G_CLUS"
	c_file "$1" "::A long file name.data" $((G_CLUS * 5 + 3))
	c_file "$1" ::DIR1/INNER.TXT 700
	c_file "$1" "::DIR1/SUB/Deep File.txt" $((G_CLUS * 2))
	c_file "$1" "::Long Directory Name/x.y" 10
}

# c_long_index IMG ::DIR "Long Name.ext": index of the short entry that
# mtools made for that long name (the entry after its LFN slots).
c_long_index() {
	mdir -i "$1" "$2" >"$T/c.mdir" 2>&1 || fail "mdir $2"
	c_alias=$(awk -v n="$3" 'index($0, n) > 0 { print $1 "|" $2 }' "$T/c.mdir" | head -n 1)
	[ -n "$c_alias" ] || hard_error "c_long_index: no $3 in $2"
	c_base8=${c_alias%%|*}
	c_ext=${c_alias#*|}
	c_entry_index "$1" "$2" "$(printf '%-8s%-3s' "$c_base8" "$c_ext")"
}

# ---- clean images --------------------------------------------------------

# relabelled (the old label entry is rewritten), hidden, system and
# read-only entries
case_clean_fat12() {
	c_mkfs "$1" 12 -n CORPUS12
	c_populate "$1"
	run mlabel -i "$1" ::RELABEL
	run mattrib -i "$1" +h +s +r ::ONE.BIN
	run mattrib -i "$1" +h ::DIR1
	C_CODES=""
}

case_clean_fat16() {
	c_mkfs "$1" 16 -n CORPUS16
	c_populate "$1"
	C_CODES=""
}

case_clean_fat32() {
	c_mkfs "$1" 32 -n CORPUS32
	c_populate "$1"
	C_CODES=""
}

# The upper 4 bits of FAT32 entries are reserved (kept, and ignored on
# reading): set in entries 0 and 1 and in every link of a chain.
case_clean_fat32_hi4() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_file "$1" ::HI.BIN 2000
	c_setfat "$1" 0 $((0xFFFFFFF8))
	c_setfat "$1" 1 $((0xFFFFFFFF))
	c_chain "$1" "$(c_first "$1" ::HI.BIN)" >"$T/c.hi"
	while read -r c_cl2; do
		c_setfat "$1" "$c_cl2" $(($(c_getfat "$1" "$c_cl2") | 0xF0000000))
	done <"$T/c.hi"
	C_CODES=""
}

# FAT32 with mirroring off (ExtFlags bit 7, active FAT 1; set after mtools
# wrote, as mtools 4.0.32 writes FAT 0 whatever ExtFlags say): FAT 0 is
# stale, it lacks the chain of ACTIVE.BIN and has a stray value in a free
# entry, which is allowed.
case_clean_fat32_nomirror() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::ACTIVE.BIN 1500
	c_put "$1" 40 2 129
	c_put "$1" $(($(le "$1" 50 2) * G_BPS + 40)) 2 129
	c_chain "$1" "$(c_first "$1" ::ACTIVE.BIN)" 1 >"$T/c.act"
	[ "$(wc -l <"$T/c.act")" -eq 3 ] || hard_error "ACTIVE.BIN not 3 clusters"
	while read -r c_cl2; do
		c_setfat "$1" "$c_cl2" 0 0
	done <"$T/c.act"
	c_setfat "$1" "$(c_spare "$1" 100)" 12345 0
	C_CODES=""
	C_FSCK_OK='^FATs differ but appear to be intact\.$|^  Using first FAT\.$|^/ACTIVE\.BIN$|^  Contains a free cluster \([0-9]+\)\. Assuming EOF\.$|^  File size is 1500 bytes, cluster chain length is 0 bytes\.$|^  Truncating file to 0 bytes\.$|^Reclaimed 1 unused cluster \(512 bytes\)\.$|^Free cluster summary wrong \([0-9]+ vs\. really [0-9]+\)$|^  Auto-correcting\.$|^Leaving filesystem unchanged\.$|^$'
	C_FSCK_WHY="fsck.fat 4.2 ignores ExtFlags: it reads the stale FAT 0"
}

# A short name that starts with 0x05 (stands for 0xE5) is valid.
case_name_e5_fat16() {
	c_mkfs "$1" 16
	c_file "$1" ::XE5NAME.TXT 10
	c_text "$1" "$(c_entry "$1" :: "XE5NAME TXT")" '\005'
	C_CODES=""
}

# ---- keep-size: tails beyond the size (warnings) -------------------------

# a 3-cluster chain for a file of 100 bytes
case_keepsize_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::KEEP.BIN $((G_CLUS * 3))
	c_set_size "$1" "$(c_entry "$1" :: "KEEP    BIN")" 100
	C_CODES="tail-beyond-size"
	C_PATHS="tail-beyond-size:/KEEP.BIN"
	C_FSCK_OK=$C_KEEPSIZE_FSCK
	C_FSCK_WHY="keep-size tail: a warning by design"
}

# size 0 with a chain (a new file after -n), in a subdirectory
case_keepsize_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::DIR1/KEEP0.BIN $((G_CLUS * 4))
	c_set_size "$1" "$(c_entry "$1" ::DIR1 "KEEP0   BIN")" 0
	C_CODES="tail-beyond-size"
	C_PATHS="tail-beyond-size:/DIR1/KEEP0.BIN"
	C_FSCK_OK=$C_KEEPSIZE_FSCK
	C_FSCK_WHY="keep-size tail: a warning by design"
}

case_keepsize_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::DIR1/SUB/KEEP.BIN $((G_CLUS * 6))
	c_set_size "$1" "$(c_entry "$1" ::DIR1/SUB "KEEP    BIN")" $((G_CLUS + 1))
	C_CODES="tail-beyond-size"
	C_PATHS="tail-beyond-size:/DIR1/SUB/KEEP.BIN"
	C_FSCK_OK=$C_KEEPSIZE_FSCK
	C_FSCK_WHY="keep-size tail: a warning by design"
}

# made by fatprealloc -n itself (new and existing files)
case_keepsize_tool_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	echo "+ fatprealloc -q -n $1 ::NEW.BIN 10000 ::ONE.BIN 5000 ::DIR1/N2.BIN 3000"
	"$FATPREALLOC" -q -n "$1" ::NEW.BIN 10000 ::ONE.BIN 5000 \
		::DIR1/N2.BIN 3000 || hard_error "fatprealloc -n failed"
	C_CODES="tail-beyond-size"
	C_PATHS="tail-beyond-size:/NEW.BIN tail-beyond-size:/ONE.BIN tail-beyond-size:/DIR1/N2.BIN"
	C_FSCK_OK=$C_KEEPSIZE_FSCK
	C_FSCK_WHY="keep-size tail: a warning by design"
}

# ---- boot sector and FSInfo (FAT32) --------------------------------------

# the volume ID (offset 67) of the backup boot sector changed
case_boot_backup_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_put "$1" $(($(le "$1" 50 2) * G_BPS + 67)) 4 $((0x5A5A5A5A))
	C_CODES="boot-backup"
}

# what syslinux --install does: the OEM name (3-10) and boot code (90-509)
# of sector 0 changed, not those of the backup
case_boot_backup_code_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_text "$1" 3 'SYSLINUX'
	c_text "$1" 90 '\372\374\061\311'
	c_text "$1" 500 '\376\002\262\076\030\067'
	C_CODES="boot-backup-code"
	C_FSCK_OK='^There are differences between boot sector and its backup\.$|^This is mostly harmless\. Differences: \(offset:original/backup\)$|^ *,? *[0-9]+:[0-9a-f]{2}/[0-9a-f]{2}(, [0-9]+:[0-9a-f]{2}/[0-9a-f]{2})*$|^  Not automatically fixing this\.$'
	C_FSCK_WHY="boot code and OEM name only: a warning by design (fsck.fat: mostly harmless)"
}

case_fsinfo_sig_lead_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_text "$1" $(($(le "$1" 48 2) * G_BPS + 3)) 'B'
	C_CODES="fsinfo-signature"
}

case_fsinfo_sig_trail_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_text "$1" $(($(le "$1" 48 2) * G_BPS + 511)) '\253'
	C_CODES="fsinfo-signature"
}

case_fsinfo_free_count_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_o=$(($(le "$1" 48 2) * G_BPS + 488))
	c_put "$1" "$c_o" 4 $(($(le "$1" "$c_o" 4) + 7))
	C_CODES="fsinfo-free-count"
	C_FSCK_OK='^Free cluster summary wrong \([0-9]+ vs\. really [0-9]+\)$|^  Auto-correcting\.$|^Leaving filesystem unchanged\.$|^$'
	C_FSCK_WHY="FSInfo free count: a warning by design"
}

case_fsinfo_next_free_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_put "$1" $(($(le "$1" 48 2) * G_BPS + 492)) 4 $((G_MAX + 10))
	C_CODES="fsinfo-next-free"
}

# FAT32 with 16100 clusters (mkfs.fat warns, and so does fsck.fat)
case_fat_type_fat32() {
	rm -f "$1"
	echo "+ mkfs.fat -C --invariant -F 32 -s 1 $1 8192"
	mkfs.fat -C --invariant -F 32 -s 1 "$1" 8192 >"$T/mkfs.out" 2>&1 || {
		cat "$T/mkfs.out" >&2
		hard_error "mkfs.fat failed"
	}
	# mtools takes it for FAT16 ("No directory slots"): one file of 3000
	# bytes in clusters 3-8, written by hand
	c_geom "$1"
	c_o=$(c_clus_off "$1" "$G_ROOTCLUS")
	c_text "$1" "$c_o" 'F       BIN\040'
	c_set_start "$1" "$c_o" 3
	c_set_size "$1" "$c_o" 3000
	for c_cl2 in 3 4 5 6 7; do
		c_setfat "$1" "$c_cl2" $((c_cl2 + 1))
	done
	c_setfat "$1" 8 "$(c_eoc "$1")"
	c_fsinfo_fix "$1"
	C_CODES="fat-type"
	C_FSCK_OK='^Warning: Filesystem is FAT32 according to fat_length and fat32_length fields,$|^  but has only [0-9]+ clusters, less than the required minimum of 65525\.$|^  This may lead to problems on some systems\.$'
	C_FSCK_WHY="FAT32 below 65525 clusters: a warning by design"
}

# ---- FAT entries 0 and 1 -------------------------------------------------

# entry 0 low byte not the media byte (FAT12, FAT32); other bits not all 1
# (FAT16)
c_media_other() {
	if [ "$(le "$1" 21 1)" -eq 248 ]; then echo 240; else echo 248; fi
}
case_fat_media_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_setfat "$1" 0 $((0xF00 | $(c_media_other "$1")))
	C_CODES="fat-media"
}
case_fat_media_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_setfat "$1" 0 $((0x7F00 | $(le "$1" 21 1)))
	C_CODES="fat-media"
}
case_fat_media_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_setfat "$1" 0 $((0x0FFFFF00 | $(c_media_other "$1")))
	C_CODES="fat-media"
}

case_fat_entry1_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_setfat "$1" 1 $((0xF00))
	C_CODES="fat-entry1"
}
case_fat_entry1_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_setfat "$1" 1 $((0xFF00))
	C_CODES="fat-entry1"
}
case_fat_entry1_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_setfat "$1" 1 $((0x0FFFFF00))
	C_CODES="fat-entry1"
}

# ---- dirty and I/O-error flags (warnings) ---------------------------------

c_state_bit() {
	c_v=$(($(le "$1" "$2" 1) | 1))
	c_put "$1" "$2" 1 "$c_v"
}
case_volume_dirty_boot_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_state_bit "$1" 37
	C_CODES="volume-dirty"
	C_FSCK_OK=$C_DIRTY_FSCK
	C_FSCK_WHY="dirty flag: a warning by design"
}
case_volume_dirty_boot_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_state_bit "$1" 37
	C_CODES="volume-dirty"
	C_FSCK_OK=$C_DIRTY_FSCK
	C_FSCK_WHY="dirty flag: a warning by design"
}
case_volume_dirty_fat_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_setfat "$1" 1 $((0x7FFF))
	C_CODES="volume-dirty"
	C_FSCK_OK=$C_DIRTY_FSCK
	C_FSCK_WHY="dirty flag: a warning by design"
}
# FAT32: the state byte in the boot sector and its backup alike
case_volume_dirty_boot_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_state_bit "$1" 65
	c_state_bit "$1" $(($(le "$1" 50 2) * G_BPS + 65))
	C_CODES="volume-dirty"
	C_FSCK_OK=$C_DIRTY_FSCK
	C_FSCK_WHY="dirty flag: a warning by design"
}
case_volume_dirty_fat_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_setfat "$1" 1 $((0x07FFFFFF))
	C_CODES="volume-dirty"
	C_FSCK_OK=$C_DIRTY_FSCK
	C_FSCK_WHY="dirty flag: a warning by design"
}
case_volume_io_error_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_setfat "$1" 1 $((0xBFFF))
	C_CODES="volume-io-error"
}
case_volume_io_error_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_setfat "$1" 1 $((0x0BFFFFFF))
	C_CODES="volume-io-error"
}

# ---- FAT values and copies -----------------------------------------------

# a reserved value (0xFFF3) in an entry no chain reaches: also lost
case_fat_bad_entry_reserved_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_setfat "$1" "$(c_spare "$1" 100)" $((0xFFF3))
	C_CODES="fat-bad-entry lost-chain"
	C_LOST=1
}
# the value 1, likewise
case_fat_bad_entry_one_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_setfat "$1" "$(c_spare "$1" 100)" 1
	C_CODES="fat-bad-entry lost-chain"
	C_LOST=1
}
# a cluster number beyond the last cluster, likewise
case_fat_bad_entry_range_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_setfat "$1" "$(c_spare "$1" 100)" $((G_MAX + 1))
	c_fsinfo_fix "$1"
	C_CODES="fat-bad-entry lost-chain"
	C_LOST=1
}

# the last copy differs: a free entry (FAT12), a link (FAT16, FAT32)
case_fat_mismatch_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_setfat "$1" "$(c_spare "$1" 50)" 5 1
	C_CODES="fat-mismatch"
}
case_fat_mismatch_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_f=$(c_first "$1" "::A long file name.data")
	c_setfat "$1" "$c_f" "$(c_eoc "$1")" 1
	C_CODES="fat-mismatch"
}
case_fat_mismatch_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_f=$(c_first "$1" "::DIR1/SUB/Deep File.txt")
	c_setfat "$1" "$c_f" 0 1
	C_CODES="fat-mismatch"
}

# ---- start clusters (size 0 entries, so no chain length is at stake) ------

c_empty_with_start() {
	c_file "$1" "$2" 0
	c_set_start "$1" "$(c_entry "$1" "$3" "$4")" "$5"
}
case_bad_start_range_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_geom "$1"
	c_empty_with_start "$1" ::BADST.BIN :: "BADST   BIN" $((G_MAX + 10))
	C_CODES="bad-start"
	C_PATHS="bad-start:/BADST.BIN"
}
case_bad_start_one_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_empty_with_start "$1" ::DIR1/BADST.BIN ::DIR1 "BADST   BIN" 1
	C_CODES="bad-start"
	C_PATHS="bad-start:/DIR1/BADST.BIN"
}
case_bad_start_free_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_empty_with_start "$1" ::BADST.BIN :: "BADST   BIN" "$(c_spare "$1" 20)"
	C_CODES="bad-start"
	C_PATHS="bad-start:/BADST.BIN"
}
case_bad_start_bad_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_b=$(c_spare "$1" 20)
	c_setfat "$1" "$c_b" "$(c_bad "$1")"
	c_fsinfo_fix "$1"
	c_empty_with_start "$1" ::DIR1/BADST.BIN ::DIR1 "BADST   BIN" "$c_b"
	C_CODES="bad-start"
	C_PATHS="bad-start:/DIR1/BADST.BIN"
	C_BAD=1
}

# ---- chains --------------------------------------------------------------

# 3 clusters c1 c2 c3, c3 links back to c2
case_chain_loop_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::LOOP.BIN $((G_CLUS * 2 + 1))
	c_chain "$1" "$(c_first "$1" ::LOOP.BIN)" >"$T/c.ch"
	c_setfat "$1" "$(sed -n 3p "$T/c.ch")" "$(sed -n 2p "$T/c.ch")"
	C_CODES="chain-loop"
	C_PATHS="chain-loop:/LOOP.BIN"
}
# c3 links back to the start
case_chain_loop_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::DIR1/SUB/LOOP.BIN $((G_CLUS * 3))
	c_chain "$1" "$(c_first "$1" ::DIR1/SUB/LOOP.BIN)" >"$T/c.ch"
	c_setfat "$1" "$(sed -n 3p "$T/c.ch")" "$(sed -n 1p "$T/c.ch")"
	C_CODES="chain-loop"
	C_PATHS="chain-loop:/DIR1/SUB/LOOP.BIN"
}

# the last cluster of a 2-cluster file links on (to a free, a bad, an
# out-of-range cluster) instead of ending; the size needs only 2 clusters
c_link_on() {
	c_geom "$1"
	c_file "$1" "$2" $((G_CLUS + 1))
	c_chain "$1" "$(c_first "$1" "$2")" >"$T/c.ch"
	[ "$(wc -l <"$T/c.ch")" -eq 2 ] || hard_error "not 2 clusters"
	c_last=$(sed -n 2p "$T/c.ch")
	c_next=$((c_last + 1))
	[ "$(c_getfat "$1" "$c_next")" -eq 0 ] || hard_error "$c_next not free"
}
case_chain_free_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_link_on "$1" ::FREE.BIN
	c_setfat "$1" "$c_last" "$c_next"
	C_CODES="chain-free"
	C_PATHS="chain-free:/FREE.BIN"
}
case_chain_bad_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_link_on "$1" ::DIR1/BAD.BIN
	c_setfat "$1" "$c_last" "$c_next"
	c_setfat "$1" "$c_next" "$(c_bad "$1")"
	C_CODES="chain-bad"
	C_PATHS="chain-bad:/DIR1/BAD.BIN"
	C_BAD=1
}
# a link beyond the last cluster is also a bad FAT entry
case_chain_range_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_link_on "$1" ::RANGE.BIN
	c_setfat "$1" "$c_last" $((G_MAX + 5))
	C_CODES="chain-range fat-bad-entry"
	C_PATHS="chain-range:/RANGE.BIN"
}

# B starts at A's second cluster (B's own cluster freed)
case_cross_link_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::A.BIN $((G_CLUS * 2))
	c_file "$1" ::B.BIN 100
	c_chain "$1" "$(c_first "$1" ::A.BIN)" >"$T/c.ch"
	c_free_chain "$1" "$(c_first "$1" ::B.BIN)"
	c_set_start "$1" "$(c_entry "$1" :: "B       BIN")" "$(sed -n 2p "$T/c.ch")"
	C_CODES="cross-link"
	C_XLINK="/A.BIN /B.BIN"
}
# across two directories; B's chain is A's last 2 clusters
case_cross_link_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	run mmd -i "$1" ::D1 ::D2
	c_file "$1" ::D1/A.BIN $((G_CLUS * 3))
	c_file "$1" ::D2/B.BIN $((G_CLUS * 2))
	c_chain "$1" "$(c_first "$1" ::D1/A.BIN)" >"$T/c.ch"
	c_free_chain "$1" "$(c_first "$1" ::D2/B.BIN)"
	c_set_start "$1" "$(c_entry "$1" ::D2 "B       BIN")" "$(sed -n 2p "$T/c.ch")"
	c_fsinfo_fix "$1"
	C_CODES="cross-link"
	C_XLINK="/D1/A.BIN /D2/B.BIN"
}

# 3 clusters needed, the chain ends after 2
case_chain_short_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::SHORT.BIN $((G_CLUS * 2 + 1))
	c_chain "$1" "$(c_first "$1" ::SHORT.BIN)" >"$T/c.ch"
	c_setfat "$1" "$(sed -n 2p "$T/c.ch")" "$(c_eoc "$1")"
	c_setfat "$1" "$(sed -n 3p "$T/c.ch")" 0
	C_CODES="chain-short"
	C_PATHS="chain-short:/SHORT.BIN"
}
# size 100 with start cluster 0
case_chain_short_zero_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_file "$1" ::DIR1/ZERO.BIN 0
	c_set_size "$1" "$(c_entry "$1" ::DIR1 "ZERO    BIN")" 100
	C_CODES="chain-short"
	C_PATHS="chain-short:/DIR1/ZERO.BIN"
}

# ---- directories ---------------------------------------------------------

case_dir_size_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_set_size "$1" "$(c_entry "$1" :: "DIR1       ")" 2048
	C_CODES="dir-size"
	C_PATHS="dir-size:/DIR1"
}

# an empty subdirectory whose start cluster is 0 (its cluster freed)
case_dir_no_chain_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	run mmd -i "$1" ::NOCHAIN
	c_free_chain "$1" "$(c_first "$1" ::NOCHAIN)"
	c_set_start "$1" "$(c_entry "$1" :: "NOCHAIN    ")" 0
	C_CODES="dir-no-chain"
	C_PATHS="dir-no-chain:/NOCHAIN"
}
case_dir_no_chain_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	run mmd -i "$1" ::DIR1/NOCHAIN
	c_free_chain "$1" "$(c_first "$1" ::DIR1/NOCHAIN)"
	c_set_start "$1" "$(c_entry "$1" ::DIR1 "NOCHAIN    ")" 0
	c_fsinfo_fix "$1"
	C_CODES="dir-no-chain"
	C_PATHS="dir-no-chain:/DIR1/NOCHAIN"
}

# "." deleted (0xE5)
case_dot_missing_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	run mmd -i "$1" ::NODOT
	c_text "$1" "$(c_clus_off "$1" "$(c_first "$1" ::NODOT)")" '\345'
	C_CODES="dot-entry"
	C_PATHS="dot-entry:/NODOT"
}
# /A/B/.. points to /C
case_dotdot_wrong_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	run mmd -i "$1" ::A ::A/B ::C
	c_o=$(c_clus_off "$1" "$(c_first "$1" ::A/B)")
	c_set_start "$1" $((c_o + 32)) "$(c_first "$1" ::C)"
	C_CODES="dot-entry"
	C_PATHS="dot-entry:/A/B"
}
# /A/B/. points to /A
case_dot_wrong_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	run mmd -i "$1" ::A ::A/B
	c_o=$(c_clus_off "$1" "$(c_first "$1" ::A/B)")
	c_set_start "$1" "$c_o" "$(c_first "$1" ::A)"
	C_CODES="dot-entry"
	C_PATHS="dot-entry:/A/B"
}

# /A/B/X is /A (X's own cluster freed)
case_dir_cycle_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	run mmd -i "$1" ::A ::A/B ::A/B/X
	c_free_chain "$1" "$(c_first "$1" ::A/B/X)"
	c_set_start "$1" "$(c_entry "$1" ::A/B "X          ")" "$(c_first "$1" ::A)"
	C_CODES="dir-cycle"
	C_PATHS="dir-cycle:/A/B/X"
}
# /A/X is the FAT32 root
case_dir_cycle_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	run mmd -i "$1" ::A ::A/X
	c_free_chain "$1" "$(c_first "$1" ::A/X)"
	c_set_start "$1" "$(c_entry "$1" ::A "X          ")" "$G_ROOTCLUS"
	c_fsinfo_fix "$1"
	C_CODES="dir-cycle"
	C_PATHS="dir-cycle:/A/X"
}

# ---- names ---------------------------------------------------------------

# c_rename IMG ::DIR "OLD     EXT" 'NEW11 (printf escapes)'
c_rename() {
	c_text "$1" "$(c_entry "$1" "$2" "$3")" "$4"
}
case_bad_name_lower_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_file "$1" ::DIR1/LOWER.TXT 10
	c_rename "$1" ::DIR1 "LOWER   TXT" 'lower   TXT'
	C_CODES="bad-name"
}
case_bad_name_ctrl_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_file "$1" ::CTRL.TXT 10
	c_rename "$1" :: "CTRL    TXT" 'C\001RL   TXT'
	C_CODES="bad-name"
}
case_bad_name_qmark_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_file "$1" ::QMARK.TXT 10
	c_rename "$1" :: "QMARK   TXT" 'Q?ARK   TXT'
	C_CODES="bad-name"
}
case_bad_name_plus_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_file "$1" ::DIR1/PLUS.TXT 10
	c_rename "$1" ::DIR1 "PLUS    TXT" 'PL+S    TXT'
	C_CODES="bad-name"
}
case_bad_name_dot_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_file "$1" ::DOT.TXT 10
	c_rename "$1" :: "DOT     TXT" 'D.T     TXT'
	C_CODES="bad-name"
}
case_bad_name_space_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_file "$1" ::SPACE.TXT 10
	c_rename "$1" :: "SPACE   TXT" ' PACE   TXT'
	C_CODES="bad-name"
}

case_duplicate_name_short_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_file "$1" ::DUP.TXT 10
	c_file "$1" ::OTHER.TXT 20
	c_rename "$1" :: "OTHER   TXT" 'DUP     TXT'
	C_CODES="duplicate-name"
}
# two long names equal but for case ("alpha..." and "Alpha..."): the first
# character of the second one's last LFN slot (ordinal 1) is patched
case_duplicate_name_long_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	run mmd -i "$1" ::LN
	c_file "$1" "::LN/Alpha Long Name.txt" 10
	c_file "$1" "::LN/Blpha Long Name.txt" 20
	c_x=$(c_long_index "$1" ::LN "Blpha Long Name.txt") || exit 1
	c_o=$(c_dir_off "$1" ::LN $((c_x - 1)))
	[ "$(le "$1" "$c_o" 1)" -eq 1 ] || hard_error "LFN slot 1 not found"
	c_text "$1" $((c_o + 1)) 'a'
	C_CODES="duplicate-name"
}

# the checksum byte of both slots of a 2-slot long name
case_lfn_orphan_checksum_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_file "$1" "::Some Long Name.txt" 10
	c_x=$(c_long_index "$1" :: "Some Long Name.txt") || exit 1
	for c_s in 1 2; do
		c_o=$(c_dir_off "$1" :: $((c_x - c_s)))
		c_put "$1" $((c_o + 13)) 1 $((($(le "$1" $((c_o + 13)) 1) + 1) & 255))
	done
	C_CODES="lfn-orphan"
}
# the first slot's ordinal 0x42 becomes 0x43
case_lfn_orphan_order_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_file "$1" "::DIR1/Some Long Name.txt" 10
	c_x=$(c_long_index "$1" ::DIR1 "Some Long Name.txt") || exit 1
	c_o=$(c_dir_off "$1" ::DIR1 $((c_x - 2)))
	[ "$(le "$1" "$c_o" 1)" -eq 66 ] || hard_error "LFN slot 0x42 not found"
	c_put "$1" "$c_o" 1 67
	C_CODES="lfn-orphan"
}
# the short entry of an empty long-named file deleted
case_lfn_orphan_noshort_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_file "$1" "::Empty Long Name.txt" 0
	c_x=$(c_long_index "$1" :: "Empty Long Name.txt") || exit 1
	c_text "$1" "$(c_dir_off "$1" :: "$c_x")" '\345'
	C_CODES="lfn-orphan"
}

# ---- labels --------------------------------------------------------------

# an empty file turned into a second label entry in the root
case_label_twice_fat12() {
	c_mkfs "$1" 12 -n FIRST
	c_populate "$1"
	c_file "$1" ::SECOND 0
	c_put "$1" $(($(c_entry "$1" :: "SECOND     ") + 11)) 1 8
	C_CODES="label"
}
case_label_subdir_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_file "$1" ::DIR1/INNERLBL 0
	c_put "$1" $(($(c_entry "$1" ::DIR1 "INNERLBL   ") + 11)) 1 8
	C_CODES="label"
}

# ---- lost clusters -------------------------------------------------------

# a 3-cluster chain made in the FAT only
case_lost_chain_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_s=$(c_spare "$1" 30)
	c_setfat "$1" "$c_s" $((c_s + 1))
	c_setfat "$1" $((c_s + 1)) $((c_s + 2))
	c_setfat "$1" $((c_s + 2)) "$(c_eoc "$1")"
	C_CODES="lost-chain"
	C_LOST=3
}
# two files whose entries were deleted (0xE5), chains kept: 2 + 3 clusters
case_lost_chain_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::GONE1.BIN $((G_CLUS * 2))
	c_file "$1" ::DIR1/GONE2.BIN $((G_CLUS * 3))
	c_text "$1" "$(c_entry "$1" :: "GONE1   BIN")" '\345'
	c_text "$1" "$(c_entry "$1" ::DIR1 "GONE2   BIN")" '\345'
	C_CODES="lost-chain"
	C_LOST=5
}
case_lost_chain_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::DIR1/SUB/GONE.BIN $((G_CLUS * 4))
	c_text "$1" "$(c_entry "$1" ::DIR1/SUB "GONE    BIN")" '\345'
	C_CODES="lost-chain"
	C_LOST=4
}

# ---- images that cannot be checked (exit 8) ------------------------------

# the second half cut off
case_cannot_truncated_fat16() {
	c_mkfs "$T/c.full" 16
	c_populate "$T/c.full"
	rm -f "$1"
	run dd if="$T/c.full" of="$1" bs=1024 count=4096
	C_RC=8
}
case_cannot_zero() {
	rm -f "$1"
	run dd if=/dev/zero of="$1" bs=1024 count=1024
	C_RC=8
}
# 3 sectors per cluster
case_cannot_bpb_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_put "$1" 13 1 3
	C_RC=8
}

# ---- edges: entries that straddle, the last cluster, big directories ----

# a 700000-byte file whose chain runs through the FAT12 entry 341, which
# straddles the first and second FAT sector
case_clean_fat12_straddle() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_file "$1" ::BIG.BIN 700000
	C_CODES=""
}
# a lost chain 340-342 across that sector boundary
case_lost_chain_fat12_straddle() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_setfat "$1" 340 341
	c_setfat "$1" 341 342
	c_setfat "$1" 342 "$(c_eoc "$1")"
	C_CODES="lost-chain"
	C_LOST=3
}
# a long name whose slots and short entry straddle two directory clusters,
# deleted entries whose clusters were reused, a root of 3 clusters
case_clean_fat32_lfn_straddle() {
	c_mkfs "$1" 32
	c_populate "$1"
	run mmd -i "$1" ::ST
	for c_k in 01 02 03 04 05 06 07 08 09 10 11 12 13; do
		c_src=$(c_data 5)
		run mcopy -i "$1" "$c_src" "::ST/F$c_k.TXT"
	done
	c_file "$1" "::ST/Straddling Long Name.txt" 10
	c_x=$(c_long_index "$1" ::ST "Straddling Long Name.txt") || exit 1
	[ "$c_x" -eq 17 ] || hard_error "short entry at $c_x, not 17"
	# deleted entries, their clusters reused
	c_file "$1" "::ST/Deleted long name.bin" 3000
	run mdel -i "$1" "::ST/Deleted long name.bin"
	c_file "$1" "::ST/REUSE.BIN" 3000
	# a root of 3 clusters
	for c_k in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
		c_src=$(c_data 1)
		run mcopy -i "$1" "$c_src" "::R$c_k.TXT"
	done
	C_CODES=""
}
# a duplicate in the second cluster of the FAT32 root
case_duplicate_name_root2_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	for c_k in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
		c_src=$(c_data 1)
		run mcopy -i "$1" "$c_src" "::R$c_k.TXT"
	done
	c_rename "$1" :: "R30     TXT" 'R01     TXT'
	C_CODES="duplicate-name"
}
# clusters marked bad, owned by nobody: counted, not a finding
case_clean_bad_clusters_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_setfat "$1" "$(c_spare "$1" 10)" "$(c_bad "$1")"
	c_setfat "$1" "$(c_spare "$1" 11)" "$(c_bad "$1")"
	C_CODES=""
	C_BAD=2
}
# FSInfo free count and next-free hint 0xFFFFFFFF (unknown)
case_clean_fat32_fsinfo_unknown() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_put "$1" $(($(le "$1" 48 2) * G_BPS + 488)) 4 $((0xFFFFFFFF))
	c_put "$1" $(($(le "$1" 48 2) * G_BPS + 492)) 4 $((0xFFFFFFFF))
	C_CODES=""
	C_FSCK_OK='^Free cluster summary uninitialized \(should be [0-9]+\)$'
	C_FSCK_WHY="fsck.fat notes the free count 0xFFFFFFFF, which means unknown"
}
# a file that starts at the FAT32 root cluster
case_cross_link_root_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::DIR1/ROOTY.BIN 100
	c_free_chain "$1" "$(c_first "$1" ::DIR1/ROOTY.BIN)"
	c_set_start "$1" "$(c_entry "$1" ::DIR1 "ROOTY   BIN")" "$G_ROOTCLUS"
	c_fsinfo_fix "$1"
	C_CODES="cross-link"
}
# two files with the same start cluster
case_cross_link_start_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::A.BIN $((G_CLUS + 1))
	c_file "$1" ::DIR1/B.BIN $((G_CLUS + 1))
	c_free_chain "$1" "$(c_first "$1" ::DIR1/B.BIN)"
	c_set_start "$1" "$(c_entry "$1" ::DIR1 "B       BIN")" "$(c_first "$1" ::A.BIN)"
	C_CODES="cross-link"
	C_XLINK="/A.BIN /DIR1/B.BIN"
}
# a file that starts at the cluster of /DIR1: DIR1 and its contents are
# still reachable, so nothing is lost
case_cross_link_dir_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_file "$1" ::F.BIN 100
	c_free_chain "$1" "$(c_first "$1" ::F.BIN)"
	c_set_start "$1" "$(c_entry "$1" :: "F       BIN")" "$(c_first "$1" ::DIR1)"
	C_CODES="cross-link"
	C_XLINK="/DIR1 /F.BIN"
}
# a directory of 2 clusters whose second links back to the first
case_chain_loop_dir_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	run mmd -i "$1" ::BIGDIR
	for c_k in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35; do
		c_src=$(c_data 1)
		run mcopy -i "$1" "$c_src" "::BIGDIR/F$c_k.TXT"
	done
	c_chain "$1" "$(c_first "$1" ::BIGDIR)" >"$T/c.ch"
	[ "$(wc -l <"$T/c.ch")" -eq 2 ] || hard_error "BIGDIR not 2 clusters"
	c_setfat "$1" "$(sed -n 2p "$T/c.ch")" "$(sed -n 1p "$T/c.ch")"
	C_CODES="chain-loop"
	C_PATHS="chain-loop:/BIGDIR"
}
# 60 bad names: 50 findings kept, 10 dropped
case_many_bad_names_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	mkdir "$T/many" || hard_error mkdir
	c_k=100
	while [ "$c_k" -lt 160 ]; do
		: >"$T/many/F$c_k.TXT"
		c_k=$((c_k + 1))
	done
	run mcopy -i "$1" "$T"/many/F*.TXT ::
	rm -rf "$T/many"
	dir_entries "$1" :: | awk -v h="$(printf 'F' | od -An -tx1 | tr -d ' ')" \
		'substr($2, 1, 2) == h { print $1 }' >"$T/c.many"
	[ "$(wc -l <"$T/c.many")" -eq 60 ] || hard_error "not 60 entries"
	while read -r c_k; do
		c_text "$1" "$(c_dir_off "$1" :: "$c_k")" 'f'
	done <"$T/c.many"
	C_CODES="bad-name"
	C_DROPPED="bad-name:10"
}
# 4096-byte sectors
case_clean_fat12_4k() {
	c_mkfs "$1" 12 -S 4096 -s 1
	c_populate "$1"
	C_CODES=""
}
case_cross_link_fat12_4k() {
	c_mkfs "$1" 12 -S 4096 -s 1
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::A.BIN $((G_CLUS * 2))
	c_file "$1" ::B.BIN 100
	c_chain "$1" "$(c_first "$1" ::A.BIN)" >"$T/c.ch"
	c_free_chain "$1" "$(c_first "$1" ::B.BIN)"
	c_set_start "$1" "$(c_entry "$1" :: "B       BIN")" "$(sed -n 2p "$T/c.ch")"
	C_CODES="cross-link"
	C_XLINK="/A.BIN /B.BIN"
}
# a subdirectory whose start cluster is out of range
case_bad_start_dir_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_geom "$1"
	run mmd -i "$1" ::BADDIR
	c_free_chain "$1" "$(c_first "$1" ::BADDIR)"
	c_set_start "$1" "$(c_entry "$1" :: "BADDIR     ")" $((G_MAX + 10))
	C_CODES="bad-start"
	C_PATHS="bad-start:/BADDIR"
}
# size 4 GiB - 1 with a 1-cluster chain
case_chain_short_huge_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_file "$1" ::HUGE.BIN 100
	c_set_size "$1" "$(c_entry "$1" :: "HUGE    BIN")" $((0xFFFFFFFF))
	C_CODES="chain-short"
	C_PATHS="chain-short:/HUGE.BIN"
}
# spaces inside a short name and bytes >= 0x80 are valid
case_name_inner_space_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_file "$1" ::INNER.TXT 10
	c_rename "$1" :: "INNER   TXT" 'IN ER   TXT'
	C_CODES=""
}
case_name_high_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_file "$1" ::HIGH.TXT 10
	c_rename "$1" :: "HIGH    TXT" 'H\231GH   TXT'
	C_CODES=""
}
# a lost cluster that links into the middle of a file's chain
case_lost_chain_merge_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::M.BIN $((G_CLUS * 3))
	c_chain "$1" "$(c_first "$1" ::M.BIN)" >"$T/c.ch"
	c_setfat "$1" "$(c_spare "$1" 10)" "$(sed -n 2p "$T/c.ch")"
	C_CODES="lost-chain"
	C_LOST=1
}
# ".." of a first-level directory holds the FAT32 root cluster instead of 0
case_dotdot_rootclus_fat32() {
	c_mkfs "$1" 32
	c_populate "$1"
	c_geom "$1"
	c_o=$(c_clus_off "$1" "$(c_first "$1" ::DIR1)")
	c_set_start "$1" $((c_o + 32)) "$G_ROOTCLUS"
	C_CODES="dot-entry"
	C_PATHS="dot-entry:/DIR1"
}
# An end-of-directory entry (name[0] 0) and a garbage entry after it, which
# the FAT spec and mtools ignore (fsck.fat 4.2 reads on)
case_end_marker_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_file "$1" ::DIR1/LAST.TXT 0
	c_o=$(c_entry "$1" ::DIR1 "LAST    TXT")
	c_text "$1" "$c_o" '\000'
	c_text "$1" $((c_o + 32)) 'lower?? txt'
	C_CODES=""
	C_FSCK_OK='^/DIR1/lower\?\?\.txt$|^  Bad short file name \(lower\?\?\.txt\)\.$|^  Auto-renaming it\.$|^  Renamed to FSCK0000\.000$|^Leaving filesystem unchanged\.$|^$'
	C_FSCK_WHY="fsck.fat 4.2 reads entries past the end-of-directory mark"
}
# long-name slots followed by the end of the directory
case_lfn_orphan_end_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_file "$1" "::DIR1/Ends The Directory.txt" 0
	c_x=$(c_long_index "$1" ::DIR1 "Ends The Directory.txt") || exit 1
	c_text "$1" "$(c_dir_off "$1" ::DIR1 "$c_x")" '\000'
	C_CODES="lfn-orphan"
}
# the last cluster of the volume, lost (FAT12: an odd cluster, whose entry
# ends the FAT's last used byte)
case_lost_chain_last_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_geom "$1"
	[ $((G_MAX % 2)) -eq 1 ] || hard_error "the last cluster is even"
	c_setfat "$1" "$(c_spare "$1" 0)" "$(c_eoc "$1")"
	C_CODES="lost-chain"
	C_LOST=1
}
case_lost_chain_last_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_setfat "$1" "$(c_spare "$1" 0)" "$(c_eoc "$1")"
	C_CODES="lost-chain"
	C_LOST=1
}
# a file in the last two clusters of the volume
case_clean_last_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	c_geom "$1"
	c_file "$1" ::LAST.BIN 100
	c_free_chain "$1" "$(c_first "$1" ::LAST.BIN)"
	c_l=$(c_spare "$1" 1)
	c_setfat "$1" "$c_l" $((c_l + 1))
	c_setfat "$1" $((c_l + 1)) "$(c_eoc "$1")"
	c_o=$(c_entry "$1" :: "LAST    BIN")
	c_set_start "$1" "$c_o" "$c_l"
	c_set_size "$1" "$c_o" $((G_CLUS + 1))
	C_CODES=""
}
# /A/X is /A
case_dir_cycle_self_fat12() {
	c_mkfs "$1" 12
	c_populate "$1"
	run mmd -i "$1" ::A ::A/X
	c_free_chain "$1" "$(c_first "$1" ::A/X)"
	c_set_start "$1" "$(c_entry "$1" ::A "X          ")" "$(c_first "$1" ::A)"
	C_CODES="dir-cycle"
	C_PATHS="dir-cycle:/A/X"
}
# a 1.44 MB floppy layout: media byte 0xF0, not 0xF8
case_clean_fat12_floppy() {
	mkimg "$1" 12 1440
	[ "$(le "$1" 21 1)" -eq 240 ] || hard_error "media byte not 0xF0"
	c_populate "$1"
	C_CODES=""
}

# a lost chain of 2 clusters that link to each other
case_lost_chain_loop_fat16() {
	c_mkfs "$1" 16
	c_populate "$1"
	c_s=$(c_spare "$1" 20)
	c_setfat "$1" "$c_s" $((c_s + 1))
	c_setfat "$1" $((c_s + 1)) "$c_s"
	C_CODES="lost-chain"
	C_LOST=2
}
