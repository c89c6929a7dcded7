#!/bin/sh
# Install the Debian packages fatprealloc needs to build and test, if any
# is missing.  Runs apt-get as root, or through sudo for other users.
set -e
pkgs="autoconf automake make gcc pkg-config libpopt-dev check dosfstools
mtools fdisk python3 groff-base man-db jq util-linux strace
valgrind"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	sudo=
else
	sudo=sudo
fi
echo "installing:$missing"
$sudo apt-get update
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y $missing
