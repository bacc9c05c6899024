#!/bin/sh
# A real one-node Slurm on this machine, from Debian's packages (slurmctld,
# slurmd, munge), for `make check-slurm` and for trying `gpuplan whatif
# --slurm` by hand.  Everything lives under one state directory; nothing
# under /etc or /run is touched.
#
#   scripts/slurm-local.sh start DIR   start munged, slurmctld, slurmd; wait
#                                      until the node is idle; print the
#                                      SLURM_CONF line to export
#   scripts/slurm-local.sh stop DIR    stop the three daemons started there
#   scripts/slurm-local.sh status DIR  sinfo through that configuration
#
# Needs root (slurmd starts job steps as the submitting user).  Ports:
# GP_SLURM_PORT (slurmctld, default 16817) and the next one (slurmd).
# Exit status: 0 ok, 1 a daemon did not come up (its log is printed).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || {
	echo "usage: slurm-local.sh start|stop|status DIR" >&2
	exit 2
}

die() {
	echo "slurm-local: $*" >&2
	exit 1
}

show_log() {
	if [ -f "$1" ]; then
		echo "---- $1 (last 30 lines) ----" >&2
		tail -n 30 "$1" >&2
	fi
}

# pid from a pid file, only when that process is alive
alive_pid() {
	[ -f "$1" ] || return 1
	p=$(cat "$1" 2>/dev/null) || return 1
	[ -n "$p" ] && kill -0 "$p" 2>/dev/null && echo "$p"
}

stop_one() {
	if p=$(alive_pid "$1"); then
		kill "$p" 2>/dev/null || true
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.2
			i=$((i + 1))
		done
		kill -0 "$p" 2>/dev/null && kill -9 "$p" 2>/dev/null || true
	fi
	rm -f "$1"
}

case $cmd in
stop)
	[ -d "$dir" ] || exit 0
	stop_one "$dir/slurmd.pid"
	stop_one "$dir/slurmctld.pid"
	stop_one "$dir/munge/munged.pid"
	exit 0
	;;
status)
	SLURM_CONF="$dir/slurm.conf" sinfo
	exit $?
	;;
start) ;;
*)
	echo "usage: slurm-local.sh start|stop|status DIR" >&2
	exit 2
	;;
esac

[ "$(id -u)" -eq 0 ] || die "must run as root (slurmd starts job steps as the submitting user)"
for b in munged slurmctld slurmd sbatch sinfo; do
	command -v "$b" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
	command -v "$b" >/dev/null 2>&1 || die "'$b' not found: install munge, slurmctld, slurmd, slurm-client (scripts/install-deps.sh)"
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/munge" "$dir/ctld" "$dir/slurmd"
chmod 700 "$dir/munge"
host=$(hostname -s 2>/dev/null || hostname)
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
# RealMemory a little under what slurmd sees, so the node is never drained
# for "low RealMemory".
mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
port=${GP_SLURM_PORT:-16817}

# munge: a fresh key of our own, its socket in the state directory
if [ ! -f "$dir/munge/munge.key" ]; then
	dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
	chmod 400 "$dir/munge/munge.key"
fi
if ! alive_pid "$dir/munge/munged.pid" >/dev/null; then
	munged --force --key-file="$dir/munge/munge.key" \
		--socket="$dir/munge/munge.socket" \
		--pid-file="$dir/munge/munged.pid" \
		--log-file="$dir/munge/munged.log" \
		--seed-file="$dir/munge/munged.seed" ||
		{ show_log "$dir/munge/munged.log"; die "munged did not start"; }
fi

sed -e "s|@HOST@|$host|g" -e "s|@STATE@|$dir|g" -e "s|@CPUS@|$cpus|g" \
	-e "s|@MEM@|$mem|g" -e "s|@USER@|$(id -un)|g" \
	-e "s|@CTLD_PORT@|$port|g" -e "s|@SLURMD_PORT@|$((port + 1))|g" \
	"$here/slurm/slurm.conf.in" >"$dir/slurm.conf"
export SLURM_CONF="$dir/slurm.conf"

if ! alive_pid "$dir/slurmctld.pid" >/dev/null; then
	slurmctld -i -f "$SLURM_CONF" ||
		{ show_log "$dir/slurmctld.log"; die "slurmctld did not start"; }
fi
if ! alive_pid "$dir/slurmd.pid" >/dev/null; then
	slurmd -f "$SLURM_CONF" ||
		{ show_log "$dir/slurmd.log"; die "slurmd did not start"; }
fi

# Wait (at most 60 s) for the node to be usable.
i=0
while :; do
	st=$(sinfo -h -n "$host" -o %t 2>/dev/null | head -n 1 || true)
	case $st in
	idle* | mix* | alloc*) break ;;
	esac
	i=$((i + 1))
	if [ $i -gt 120 ]; then
		show_log "$dir/slurmctld.log"
		show_log "$dir/slurmd.log"
		die "node '$host' is not idle after 60 s (state '${st:-none}')"
	fi
	sleep 0.5
done
echo "SLURM_CONF=$dir/slurm.conf"
