# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# tests/corpus/lib.sh: helpers that make the images of the --verify corpus
# (tests/corpus/*/image.sh), sourced after tests/img/lib.sh by the corpus
# runner tests/corpus/run.sh and by tests/img/hostile.test (POSIX sh).
#
# The images are made with SOURCE_DATE_EPOCH set, so a case gives the same
# bytes on every run.  Functions and variables are prefixed c_ (C_ for the
# constants); an image.sh may set c_ variables of its own.

SOURCE_DATE_EPOCH=1577836800
export SOURCE_DATE_EPOCH

# fsck.fat lines that a keep-size tail causes (as fsck_keepsize accepts);
# an expect file names this set "fsck-ok @keep-size".
C_KEEPSIZE_FSCK='^/|^  File size is [0-9]+ bytes, cluster chain length is > [0-9]+ bytes\.$|^  Truncating file to [0-9]+ bytes\.$|^Free cluster summary wrong \([0-9]+ vs\. really [0-9]+\)$|^  Auto-correcting\.$|^Leaving filesystem unchanged\.$|^$'

# fsck.fat lines about a dirty flag ("fsck-ok @dirty-flag").
C_DIRTY_FSCK='^Dirty bit is set\. Fs was not properly unmounted and some data may be corrupt\.$|^ Automatically removing dirty bit\.$|^Leaving filesystem unchanged\.$|^$'

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
# c_media_other IMG: a media byte other than the one in the BPB.
c_media_other() {
	if [ "$(le "$1" 21 1)" -eq 248 ]; then echo 240; else echo 248; fi
}

# c_state_bit IMG OFFSET: set bit 0 of the byte at OFFSET (a dirty flag).
c_state_bit() {
	c_v=$(($(le "$1" "$2" 1) | 1))
	c_put "$1" "$2" 1 "$c_v"
}

# c_empty_with_start IMG ::PATH ::DIR "NAME    EXT" CLUSTER: an empty
# file ::PATH (entry NAME in ::DIR) that starts at CLUSTER.
c_empty_with_start() {
	c_file "$1" "$2" 0
	c_set_start "$1" "$(c_entry "$1" "$3" "$4")" "$5"
}

# c_link_on IMG ::PATH: a new 2-cluster file ::PATH (one cluster plus one
# byte); sets c_last to its last cluster and c_next to the free cluster
# after it, for a case that makes the chain link on instead of ending.
c_link_on() {
	c_geom "$1"
	c_file "$1" "$2" $((G_CLUS + 1))
	c_chain "$1" "$(c_first "$1" "$2")" >"$T/c.ch"
	[ "$(wc -l <"$T/c.ch")" -eq 2 ] || hard_error "not 2 clusters"
	c_last=$(sed -n 2p "$T/c.ch")
	c_next=$((c_last + 1))
	[ "$(c_getfat "$1" "$c_next")" -eq 0 ] || hard_error "$c_next not free"
}

# c_rename IMG ::DIR "OLD     EXT" 'NEW11 (printf escapes)'
c_rename() {
	c_text "$1" "$(c_entry "$1" "$2" "$3")" "$4"
}

# c_cross_link_ab IMG: new files /A.BIN (2 clusters) and /B.BIN, whose
# entry then starts at A's second cluster (B's own cluster freed).
c_cross_link_ab() {
	c_geom "$1"
	c_file "$1" ::A.BIN $((G_CLUS * 2))
	c_file "$1" ::B.BIN 100
	c_chain "$1" "$(c_first "$1" ::A.BIN)" >"$T/c.ch"
	c_free_chain "$1" "$(c_first "$1" ::B.BIN)"
	c_set_start "$1" "$(c_entry "$1" :: "B       BIN")" "$(sed -n 2p "$T/c.ch")"
}
