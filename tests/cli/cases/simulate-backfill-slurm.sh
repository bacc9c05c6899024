# --backfill slurm on small-cluster.yaml (2 nodes of 4 GPUs), by hand:
# A (4 GPUs, 0-100) fills n0, B (3 GPUs, 0-50) three GPUs of n1.  H (2 GPUs,
# 10 s) arrives at 1 and waits for B: its start is 50 on n1.  C (1 GPU,
# 100 s) arrives at 2; n1's fourth GPU is free.
#   easy: H holds n1's GPUs it needs from 50; C takes the free one, which H
#   does not need: C 2-102.
#   slurm: H holds all of n1 over [50, 60); C would run over it, so it
#   waits beside the free GPU; at 50 B ends, H starts, and C takes a GPU
#   beside it: C 50-150 (queue delay 48 s).
S=tests/data/sim
for m in easy slurm; do
	run simulate -c $S/small-cluster.yaml $S/whole-nodes.csv --queue backfill --backfill $m \
		--csv $TMP/$m --quiet | sed -n '3,4p'
	cut -d, -f1-4,9 $TMP/$m/jobs.csv
done
echo "== the report says which rules ran, their cycle and the passes"
run simulate -c $S/small-cluster.yaml $S/whole-nodes.csv --queue backfill --backfill slurm \
	--bf-interval 30 --sched-interval 2.5 --json - | sed -n '/"backfill": {/,/}/p;/"sched_interval"/p'
run simulate -c $S/small-cluster.yaml $S/whole-nodes.csv --sched-interval 3 --quiet | sed -n '3,4p'
run simulate -c $S/small-cluster.yaml $S/whole-nodes.csv --quiet | sed -n '3,4p'
# a record with time limits: backfill takes them as run-time estimates
run simulate tests/data/sacct/rules.P.txt --queue backfill --backfill-depth 8 --quiet | sed -n '3,4p'
echo "== slurm's rules belong to the backfill queue"
run simulate -c $S/small-cluster.yaml $S/whole-nodes.csv --backfill slurm
run simulate -c $S/small-cluster.yaml $S/whole-nodes.csv --queue backfill --backfill conservative
