# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# tests/corpus/run.sh CASE/image.sh: run one case of the --verify corpus
# (tests/corpus/README.md).  The automake harness runs it for every case
# (SH_LOG_COMPILER, tests/img/tests.am, tests/corpus/list.sh), with
# FATPREALLOC and TESTLIB set.
#
# It makes the image with CASE/image.sh (sourced, with IMG set, after
# tests/img/lib.sh and tests/corpus/lib.sh) and reads CASE/expect.  Then
# the exit status and the set of finding codes of --verify --json must be
# the expected ones, the text mode and IMAGE@@OFFSET / -o OFFSET (on a copy
# behind a garbage prefix) must agree, --strict must count warnings as
# errors, and the image must be left unchanged.  fsck.fat -n runs on the
# same image: whenever it reports a problem, --verify must exit 4 (8 for a
# case that cannot be checked), unless the case accepts fsck.fat's lines
# and says why (fsck-ok, fsck-why: a finding that is a warning by design,
# or a known fsck.fat 4.2 limitation).  Every failed check is reported (a
# "FAIL: CASE: ..." line), then the case fails.  The log ends in one table
# line (case, our codes, our exit, fsck exit, fsck's first problem line);
# FP_CORPUS_TABLE=FILE also appends it to FILE as a Markdown row
# (docs/verify-corpus.md).
. "$TESTLIB"
slow_test
need_tools python3 head cat

. "$(dirname "$TESTLIB")/../corpus/lib.sh"

[ $# -eq 1 ] || hard_error "usage: run.sh CASE/image.sh"
cdir=$(dirname "$1")
cname=$(basename "$cdir")
[ -r "$cdir/image.sh" ] && [ -r "$cdir/expect" ] ||
	hard_error "$cdir: no image.sh or no expect"

# the interpreter itself, not a wrapper script that may take a second to
# start (pyenv shims)
PYTHON=$(python3 -c 'import sys; print(sys.executable)') ||
	hard_error "python3 does not run"

# The finding codes and their severities, "CODE error|warning" a line,
# from the checker's one problem list, src/lib/problems.def: each row
# starts with a line FP_PROBLEM(FP_P_NAME, "code", FP_SEV_ERROR|WARNING,
PROBLEMS_DEF=$(dirname "$TESTLIB")/../../src/lib/problems.def
[ -r "$PROBLEMS_DEF" ] || hard_error "cannot read $PROBLEMS_DEF"
SEVERITIES=$(sed -n 's/^FP_PROBLEM(FP_P_[A-Z0-9_]*, "\([a-z0-9-]*\)", FP_SEV_\([A-Z]*\),.*/\1 \2/p' \
	"$PROBLEMS_DEF" | sed 's/ ERROR$/ error/; s/ WARNING$/ warning/')
rows=$(grep -c '^FP_PROBLEM(' "$PROBLEMS_DEF")
[ "$(echo "$SEVERITIES" | grep -c -e ' error$' -e ' warning$')" -eq "$rows" ] ||
	hard_error "$PROBLEMS_DEF: a row does not start with FP_PROBLEM(NAME, \"code\", FP_SEV_ERROR or FP_SEV_WARNING,"

# $PYTHON -c "$PYCHECK" JSON SEVERITIES BITS NCLUS LOST BAD DROPPED PATHS
# XLINK: print the sorted set of finding codes (one line, blank-separated),
# the number of findings and the number of codes with dropped findings on
# the next two lines, then one line for each thing wrong with the document.
# Exit 3 if it is not one JSON document.
PYCHECK='
import json, sys
path, sevtext, bits, nclus, lost, bad, dropspec, paths, xlink = sys.argv[1:10]
sev = dict(l.split() for l in sevtext.strip().splitlines())
try:
    with open(path) as f:
        doc = json.load(f)
except ValueError as e:
    print("not one JSON document: %s" % e)
    sys.exit(3)
bad_lines = []
def bad_doc(m):
    bad_lines.append(m)
if not isinstance(doc, dict):
    print("the document is not an object")
    sys.exit(3)
for k in ("image", "geometry", "counts", "findings", "dropped"):
    if k not in doc:
        bad_doc("no \"%s\" member" % k)
counts = doc.get("counts") or {}
for k in ("files", "directories", "clusters_used", "clusters_free",
          "clusters_bad", "clusters_lost", "errors", "warnings"):
    if not isinstance(counts.get(k), int):
        bad_doc("counts.%s missing or not an integer" % k)
        counts[k] = 0
findings = doc.get("findings") or []
codes = set()
nerr = nwarn = 0
for f in findings:
    c = f.get("code")
    codes.add(str(c))
    for k in ("code", "severity", "path", "clusters", "message"):
        if k not in f:
            bad_doc("finding %s without \"%s\"" % (c, k))
    if c not in sev:
        bad_doc("unknown code %s" % c)
    elif f.get("severity") != sev[c]:
        bad_doc("%s has severity %s, not %s" % (c, f.get("severity"), sev[c]))
    if f.get("severity") == "error":
        nerr += 1
    elif f.get("severity") == "warning":
        nwarn += 1
    if not isinstance(f.get("clusters", []), list):
        bad_doc("%s: clusters is not a list" % c)
dropped = doc.get("dropped")
if not isinstance(dropped, dict):
    bad_doc("dropped is not an object")
    dropped = {}
dropped = dict((k, v) for k, v in dropped.items() if v)
want_dropped = dict((cn.split(":")[0], int(cn.split(":")[1]))
                    for cn in dropspec.split())
if dropped != want_dropped:
    bad_doc("dropped %s, expected %s" % (dropped, want_dropped))
for k, v in dropped.items():
    if sev.get(k) == "error":
        nerr += v
    elif sev.get(k) == "warning":
        nwarn += v
if (counts["errors"], counts["warnings"]) != (nerr, nwarn):
    bad_doc("counts say %d errors, %d warnings; the findings (and dropped) %d, %d"
            % (counts["errors"], counts["warnings"], nerr, nwarn))
geo = doc.get("geometry") or {}
if "fat_type" in geo and geo["fat_type"] != int(bits):
    bad_doc("geometry.fat_type %s, the volume is FAT%s" % (geo["fat_type"], bits))
if "clusters" in geo and geo["clusters"] != int(nclus):
    bad_doc("geometry.clusters %s, the volume has %s" % (geo["clusters"], nclus))
s = counts["clusters_used"] + counts["clusters_free"] + counts["clusters_bad"]
if s != int(nclus):
    bad_doc("used %d + free %d + bad %d = %d clusters, the volume has %s"
            % (counts["clusters_used"], counts["clusters_free"],
               counts["clusters_bad"], s, nclus))
if counts["clusters_lost"] != int(lost or 0):
    bad_doc("clusters_lost %d, expected %d" % (counts["clusters_lost"], int(lost or 0)))
if counts["clusters_bad"] != int(bad or 0):
    bad_doc("clusters_bad %d, expected %d" % (counts["clusters_bad"], int(bad or 0)))
for cp in paths.split():
    c, p = cp.split(":", 1)
    if not any(f.get("code") == c and str(f.get("path", "")).upper() == p.upper()
               for f in findings):
        bad_doc("no %s finding with path %s" % (c, p))
if xlink:
    a, b = xlink.split()
    if not any(f.get("code") == "cross-link"
               and a.upper() in json.dumps(f).upper()
               and b.upper() in json.dumps(f).upper() for f in findings):
        bad_doc("no cross-link finding names both %s and %s" % (a, b))
print(" ".join(sorted(codes)))
print(len(findings))
print(len(dropped))
for m in bad_lines:
    print(m)
'

failed=0
cfail() {
	echo "FAIL: $cname: $*" >&2
	failed=1
}

# severity CODE
severity() {
	echo "$SEVERITIES" | awk -v c="$1" '$1 == c { print $2 }'
}

# verify_json IMG-ARGS...: --verify --json; codes in $v_codes, findings in
# $v_n, codes with dropped findings in $v_nd; problems with the document
# are reported.
verify_json() {
	fp --verify --json "$@"
	v_rc=$rc
	v_codes=- v_n=0 v_nd=0
	[ "$v_rc" -ne 8 ] && [ "$v_rc" -ne 16 ] || return 0
	"$PYTHON" -c "$PYCHECK" "$T/fp.out" "$SEVERITIES" "$G_BITS" \
		"$G_NCLUS" "$C_LOST" "$C_BAD" "$C_DROPPED" "$C_PATHS" "$C_XLINK" \
		>"$T/py.out"
	v_prc=$?
	if [ "$v_prc" -ne 0 ]; then
		cfail "$(cat "$T/py.out")"
		sed 's/^/  stdout: /' "$T/fp.out" | head -n 40
		return 0
	fi
	v_codes=$(sed -n 1p "$T/py.out")
	v_n=$(sed -n 2p "$T/py.out")
	v_nd=$(sed -n 3p "$T/py.out")
	tail -n +4 "$T/py.out" | while IFS= read -r l; do
		echo "FAIL: $cname: $l" >&2
	done
	if [ -n "$(tail -n +4 "$T/py.out")" ]; then
		failed=1
		sed 's/^/  stdout: /' "$T/fp.out" | head -n 40
	fi
}

unchanged() {
	cmp "$T/saved" "$1" >/dev/null 2>&1 || cfail "--verify changed the image"
}

# read_expect FILE: the expect file, one "KEY VALUE" a line, into E_*.
read_expect() {
	E_EXIT= E_STRICT= E_CODES= C_PATHS= C_XLINK= C_LOST= C_BAD= C_DROPPED=
	C_FSCK_OK= C_FSCK_WHY=
	while IFS= read -r l; do
		k=${l%% *} v=${l#* }
		[ "$k" != "$l" ] || hard_error "$1: '$l' has no value"
		case $k in
		exit) E_EXIT=$v ;;
		strict) E_STRICT=$v ;;
		codes) E_CODES=$v ;;
		paths) C_PATHS=$v ;;
		xlink) C_XLINK=$v ;;
		lost) C_LOST=$v ;;
		bad) C_BAD=$v ;;
		dropped) C_DROPPED=$v ;;
		fsck-ok)
			case $v in
			@keep-size) v=$C_KEEPSIZE_FSCK ;;
			@dirty-flag) v=$C_DIRTY_FSCK ;;
			@*) hard_error "$1: no fsck.fat line set $v" ;;
			esac
			C_FSCK_OK=$v
			;;
		fsck-why) C_FSCK_WHY=$v ;;
		*) hard_error "$1: unknown key '$k'" ;;
		esac
	done <"$1"
	[ -n "$E_EXIT" ] && [ -n "$E_STRICT" ] && [ -n "$E_CODES" ] ||
		hard_error "$1: exit, strict and codes are required"
	[ "$E_CODES" != - ] || E_CODES=
}

read_expect "$cdir/expect"
note "case $cname"
img=$T/case.img
IMG=$img
. "$cdir/image.sh"
# FAT type and data clusters (0 where there is no usable BPB)
G_NCLUS=$( (c_geom "$img" && echo "$G_BITS $G_NCLUS") 2>/dev/null) ||
	G_NCLUS="0 0"
G_BITS=${G_NCLUS% *} G_NCLUS=${G_NCLUS#* }
want_codes=$(echo $E_CODES | tr ' ' '\n' | sort | tr '\n' ' ')
want_codes=${want_codes% }
[ "$want_codes" = "$E_CODES" ] || hard_error "expect: codes not sorted"
# The exit statuses follow from the severities of the codes: the expect
# file must say the same.
if [ "$E_EXIT" = 8 ]; then
	[ -z "$E_CODES" ] || hard_error "expect: exit 8 with codes"
	want=8 want_strict=8 want_codes=-
else
	want=0 want_strict=0
	for c_code in $E_CODES; do
		want_strict=4
		s=$(severity "$c_code")
		[ -n "$s" ] || hard_error "$cname: unknown code $c_code"
		[ "$s" = warning ] || want=4
	done
fi
[ "$E_EXIT" = "$want" ] && [ "$E_STRICT" = "$want_strict" ] ||
	hard_error "expect: exit $E_EXIT, strict $E_STRICT; the codes mean exit $want, strict $want_strict"
note "expect exit $want (--strict $want_strict), codes: ${want_codes:-none}"
cp "$img" "$T/saved" || hard_error "cp failed"

# JSON
verify_json "$img"
unchanged "$img"
got_rc=$v_rc got_codes=$v_codes got_n=$v_n got_nd=$v_nd
[ "$v_rc" -eq "$want" ] || cfail "--verify --json exited $v_rc, expected $want"
[ "$v_codes" = "$want_codes" ] ||
	cfail "codes '$v_codes', expected '$want_codes'"

# text: same exit, a line a finding (and one for each code with
# dropped findings) and a summary line
fp --verify "$img"
unchanged "$img"
[ "$rc" -eq "$want" ] || cfail "--verify (text) exited $rc, expected $want"
if [ "$want" -ne 8 ] && [ "$rc" -ne 8 ]; then
	sed 's/^/  stdout: /' "$T/fp.out" | head -n 10
	n=$(wc -l <"$T/fp.out" | tr -d ' ')
	[ "$n" -eq $((got_n + got_nd + 1)) ] ||
		cfail "text mode printed $n lines for $got_n findings"
fi

# --strict: warnings count as errors
verify_json --strict "$img"
unchanged "$img"
strict_rc=$v_rc
[ "$v_rc" -eq "$want_strict" ] ||
	cfail "--strict exited $v_rc, expected $want_strict"
[ "$v_codes" = "$want_codes" ] ||
	cfail "--strict: codes '$v_codes', expected '$want_codes'"

# at an offset, behind 63 sectors of garbage
off=32256
{
	head -c "$off" /dev/zero | tr '\000' '\245'
	cat "$img"
} >"$T/off.img" || hard_error "cannot make the offset copy"
cp "$T/off.img" "$T/saved"
verify_json "$T/off.img@@$off"
unchanged "$T/off.img"
[ "$v_rc" -eq "$want" ] || cfail "IMAGE@@$off: exit $v_rc, expected $want"
[ "$v_codes" = "$want_codes" ] ||
	cfail "IMAGE@@$off: codes '$v_codes', expected '$want_codes'"
fp --verify -o "$off" "$T/off.img"
unchanged "$T/off.img"
[ "$rc" -eq "$want" ] || cfail "-o $off: exit $rc, expected $want"
rm -f "$T/off.img"

# fsck.fat on the same image
echo "+ fsck.fat -n $img"
fsck.fat -n "$img" >"$T/fsck.out" 2>&1
fsck_rc=$?
grep -v -e '^fsck\.fat [0-9]' \
	-e ': [0-9]* files, [0-9]*/[0-9]* clusters$' "$T/fsck.out" \
	>"$T/fsck.probs"
sed 's/^/  fsck: /' "$T/fsck.probs" | head -n 20
first=$(grep -v '^$' "$T/fsck.probs" | head -n 1)
if [ -n "$C_FSCK_OK" ]; then
	grep -v -E -e "$C_FSCK_OK" "$T/fsck.probs" >"$T/fsck.unexpl"
else
	cp "$T/fsck.probs" "$T/fsck.unexpl"
fi
if [ -s "$T/fsck.unexpl" ] ||
	{ [ "$fsck_rc" -ne 0 ] && [ -z "$C_FSCK_OK" ]; }; then
	if [ "$want" -eq 8 ]; then
		[ "$got_rc" -eq 8 ] ||
			cfail "fsck.fat fails on an image --verify must refuse (exit $got_rc)"
	elif [ "$got_rc" -ne 4 ]; then
		cfail "fsck.fat -n reports a problem, --verify exits $got_rc: $(head -n 1 "$T/fsck.unexpl")"
	fi
elif [ -s "$T/fsck.probs" ] || [ "$fsck_rc" -ne 0 ]; then
	note "fsck.fat lines accepted: $C_FSCK_WHY"
fi

[ "$failed" -eq 0 ] && verdict=ok || verdict=FAIL
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$cname" \
	"${want_codes:--}" "${got_codes:--}" "$got_rc" "$strict_rc" \
	"$fsck_rc" "${first:--}" "${C_FSCK_WHY:-}" "$verdict" >"$T/row"
printf '# TABLE %-30s %-26s exit %s strict %s | fsck %s %s  [%s]\n' \
	"$cname" "${got_codes:--}" "$got_rc" "$strict_rc" "$fsck_rc" \
	"${first:--}" "$verdict"
if [ -n "${FP_CORPUS_TABLE:-}" ]; then
	awk -F '\t' '{
		for (i = 1; i <= NF; i++) gsub(/\|/, "\\|", $i)
		printf "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9
	}' "$T/row" >>"$FP_CORPUS_TABLE"
fi
[ "$failed" -eq 0 ] || fail "$cname: see the FAIL lines above"
