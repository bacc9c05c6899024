#!/bin/sh
# Install the Debian packages gpuplan needs to build and test.
# Idempotent: does nothing (and prints nothing) when everything is present.
set -eu

PACKAGES="build-essential clang pkg-config libyaml-dev libjansson-dev libgsl-dev libcunit1-dev mandoc libsqlite3-dev sqlite3 slurmctld slurmd slurm-client munge libfann-dev jq cppcheck chromium"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		echo "install-deps: missing packages:$missing (run as root)" >&2
		exit 1
	fi
fi

echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
