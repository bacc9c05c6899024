#!/bin/sh
# make check-slurm-history: gpuplan's replay against a real Slurm.  Start
# the one-node Slurm of scripts/slurm-local.sh with 8 fake GPUs (gres.conf
# on device files), submit a seeded mix of GPU jobs (1-8 GPUs, sleeps of a
# few seconds, arrivals in bursts of BURST jobs that build a queue and let
# it drain, tight and loose time limits) under sched/builtin and then
# under sched/backfill, read the history back (`scontrol show job -o`,
# kept by MinJobAge) with `gpuplan import sacct`, replay it with the
# matching options, and check that the simulated starts follow Slurm's:
# p90 of |simulated - recorded start| within 6 seconds (10 for EASY under
# sched/backfill; Slurm's own backfill rules, --backfill slurm with its
# 30 s cycles, within 6) and the start order kept (MIN_ORDER of the jobs).
# Prints the figures.  Needs root and Debian's slurmctld, slurmd, munge
# and slurm-client.
#   check-slurm-history.sh GPUPLAN [JOBS] [SEED]
set -eu
GPUPLAN=${1:?usage: check-slurm-history.sh /path/to/gpuplan [jobs] [seed]}
NJOBS=${2:-50}
SEED=${3:-7}
MIN_ORDER=${MIN_ORDER:-0.9}
BURST=${BURST:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-slurm-history.XXXXXX")
GP_SLURM_PORT=${GP_SLURM_PORT:-$((24000 + ($$ % 4000) * 2))}
export GP_SLURM_PORT
fail() {
	echo "check-slurm-history: FAILED: $*" >&2
	exit 1
}
cleanup() {
	sh "$dir/scripts/slurm-local.sh" stop "$dir/state" >/dev/null 2>&1 || true
	[ -n "${KEEP:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The job mix, from the seed (awk's rand is seeded, so the same seed gives
# the same jobs): gpus, seconds of sleep, time limit in minutes, gap before
# the next submission in tenths of a second.
awk -v n="$NJOBS" -v seed="$SEED" 'BEGIN {
	srand(seed);
	for (i = 0; i < n; i++) {
		r = rand();
		g = r < 0.4 ? 1 : r < 0.65 ? 2 : r < 0.85 ? 4 : r < 0.93 ? 3 : 8;
		s = 2 + int(rand() * 8);
		if (rand() < 0.1) s += 12;
		lim = rand() < 0.5 ? 1 : 5;
		gap = int(rand() * 16);
		print g, s, lim, gap;
	}
}' >"$dir/mix.txt"

# Wait for the queue to drain (at most 10 minutes).
drain() {
	i=0
	while [ "$(squeue -h | wc -l)" -gt 0 ]; do
		i=$((i + 1))
		[ $i -gt 600 ] && fail "$1: jobs still queued after 10 minutes"
		sleep 1
	done
}

run_one() {
	sched=$1
	st=$dir/$sched
	mkdir -p "$st/scripts/slurm" "$st/state"
	cp "$root/scripts/slurm-local.sh" "$st/scripts/"
	# 8 fake GPUs; CPUs and memory never the bottleneck (slurmd takes the
	# configured 64 CPUs with config_overrides); jobs stay visible to
	# scontrol for an hour; the scheduler under test.
	sed -e 's|^NodeName=@HOST@ \(.*\) State=UNKNOWN|GresTypes=gpu\nSlurmdParameters=config_overrides\nNodeName=@HOST@ \1 Gres=gpu:h100:8 State=UNKNOWN|' \
	    -e 's|CPUs=@CPUS@|CPUs=64|' \
	    -e 's|^MinJobAge=.*|MinJobAge=3600|' \
	    -e "s|^SchedulerType=.*|SchedulerType=sched/$sched|" \
	    "$root/scripts/slurm/slurm.conf.in" >"$st/scripts/slurm/slurm.conf.in"
	for i in 0 1 2 3 4 5 6 7; do
		mknod "$st/state/nvidia$i" c 1 3 || fail "mknod (needs root)"
	done
	printf 'AutoDetect=off\nName=gpu Type=h100 File=%s/state/nvidia[0-7]\n' "$st" >"$st/state/gres.conf"
	conf=$(sh "$st/scripts/slurm-local.sh" start "$st/state" | tail -n 1) || fail "Slurm did not start"
	export "$conf"
	printf '#!/bin/sh\nsleep "$1"\n' >"$st/job.sh"
	chmod +x "$st/job.sh"
	k=0
	while read -r g s lim gap; do
		k=$((k + 1))
		sbatch -Q -J "j$k" -o /dev/null --gres=gpu:h100:"$g" -c 1 -t "$lim" \
			"$st/job.sh" "$s" >/dev/null || fail "sbatch j$k"
		[ "$gap" -gt 0 ] && sleep "$(awk -v g="$gap" 'BEGIN { printf "%.1f", g / 10 }')"
		# Bursts: the queue drains (and stays idle a few seconds)
		# every BURST jobs, so the second or so each start in a chain
		# drifts from Slurm's does not add up over the whole run.
		if [ $((k % BURST)) -eq 0 ] && [ "$k" -lt "$NJOBS" ]; then
			drain "$sched"
			sleep 3
		fi
	done <"$dir/mix.txt"
	drain "$sched"
	scontrol show job -o >"$st/jobs.txt"
	scontrol show node >"$st/node.txt"
	sh "$st/scripts/slurm-local.sh" stop "$st/state" >/dev/null 2>&1 || true
	"$GPUPLAN" import slurm "$st/node.txt" -o "$st/cluster.yaml" -q >/dev/null || fail "import slurm"
	"$GPUPLAN" import sacct "$st/jobs.txt" -o "$st/trace.csv" -q >/dev/null || fail "import sacct"
}

# The figures of one replay (the top level of recorded_vs_simulated in the
# JSON, read by brace depth): p90 start error, order kept, KS distance.
figures() {
	awk '
		/"recorded_vs_simulated"/ { in_r = 1; d = 0 }
		in_r {
			line = $0
			if (d == 1 && line ~ /"ks"/) { gsub(/[^0-9.]/, "", $2); ks = $2 }
			if (d == 1 && line ~ /"order_kept"/) { gsub(/[^0-9.]/, "", $2); order = $2 }
			if (d == 1 && line ~ /"start_error"/) se = 1
			if (d == 2 && se && line ~ /"p90"/) { gsub(/[^0-9.]/, "", $2); p90 = $2 }
			o = gsub(/{/, "{", line); c = gsub(/}/, "}", line)
			d += o - c
			if (d == 1 && c > 0) se = 0
			if (d <= 0 && c > 0) in_r = 0
		}
		END { print p90, order, ks }' "$1"
}

check() {
	sched=$1 max_err=$2 min_order=$3 queue=$4
	shift 4
	opts="$*"
	st=$dir/$sched
	"$GPUPLAN" simulate -c "$st/cluster.yaml" "$st/trace.csv" --queue "$queue" "$@" \
		--json "$st/sim.json" >"$st/sim.txt" || fail "$sched: simulate"
	set -- $(figures "$st/sim.json")
	echo "$sched (replayed with --queue $queue $opts): p90 |simulated - recorded start| $1 s, start order kept $2, KS $3"
	awk -v e="$1" -v o="$2" -v me="$max_err" -v mo="$min_order" \
		'BEGIN { exit !(e <= me && o >= mo) }' ||
		{ cat "$st/sim.txt" >&2; fail "$sched: the replay is off Slurm's record"; }
}

run_one builtin
run_one backfill
n=$(grep -c . "$dir/mix.txt")
# sched/builtin: FIFO with passes every 4 s (Slurm schedules about
# batch_sched_delay after an event, not at once, and a job's GPUs come
# free a moment after its recorded end).
check builtin 6 "$MIN_ORDER" fifo --sched-interval 4
# sched/backfill on one node: Slurm 22.05 reserves whole nodes, so the
# blocked head's reservation takes the only node and little backfills;
# FIFO with the same passes is the closest model, and gpuplan's EASY with
# time limits (which backfills beside the reservation) stays close within
# a burst.
check backfill 6 "$MIN_ORDER" fifo --sched-interval 3
check backfill 10 "$MIN_ORDER" backfill --sched-interval 3
# Slurm's own rules: a plan for every waiting job, whole nodes reserved,
# at backfill cycles every bf_interval (30 s, Slurm's default; the
# configuration here does not set it).
check backfill 6 "$MIN_ORDER" backfill --backfill slurm --bf-interval 30 --sched-interval 3
echo "check-slurm-history: ok ($n jobs a scheduler, Slurm $(sinfo -V 2>/dev/null | cut -d' ' -f2))"
