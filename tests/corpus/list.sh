#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# tests/corpus/list.sh: write tests/corpus/list.am, the automake list of
# the --verify corpus (CORPUS_TESTS: tests/corpus/NAME/image.sh for every
# directory tests/corpus/NAME/, in LC_ALL=C order), so that adding a case
# is adding its directory.  ./bootstrap runs it; tests/img/tests.am
# includes the list, and tests/img/corpus-list.test fails while it is
# stale.  The file is rewritten only when its text changes.
set -e
cd "$(dirname "$0")"
out=list.am
tmp=$out.tmp$$
names=
for d in */; do
	[ -d "$d" ] || continue
	n=${d%/}
	case $n in
	*[!a-z0-9-]*)
		echo "list.sh: tests/corpus/$n: a case's name is lowercase" \
			"letters, digits and '-'" >&2
		exit 1
		;;
	esac
	if [ ! -f "$n/image.sh" ] || [ ! -f "$n/expect" ]; then
		echo "list.sh: tests/corpus/$n has no image.sh or no expect" \
			"(tests/corpus/README.md)" >&2
		exit 1
	fi
	names="$names$n
"
done
trap 'rm -f "$tmp"' EXIT
{
	echo '# SPDX-License-Identifier: GPL-3.0-or-later'
	echo '# Copyright (C) 2026 The fatprealloc authors'
	echo '# Made by tests/corpus/list.sh (./bootstrap) from the directories'
	echo '# tests/corpus/*/; not in git.  Run ./bootstrap after adding a case.'
	printf 'CORPUS_TESTS ='
	printf '%s' "$names" | LC_ALL=C sort | while IFS= read -r n; do
		printf ' \\\n\ttests/corpus/%s/image.sh' "$n"
	done
	echo
} >"$tmp"
if ! cmp -s "$tmp" "$out"; then
	mv -f "$tmp" "$out"
fi
