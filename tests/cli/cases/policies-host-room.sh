# A job that spans nodes takes on each node only as many GPUs as the
# node's free host CPUs and memory allow.  Three DGX-1 (80 CPUs each)
# each run a 1-GPU job holding 60 CPUs; a 12-GPU ring asking 4 CPUs per
# GPU then fits 5 GPUs per node (20 CPUs free), 15 in all.  Before the
# fix, random, packing, spread, gpu-pair-score and predicted-share took
# all 7 free GPUs of a node and the run stopped at "proposed a placement
# that does not fit".  bestfit, bw-max and nic-affinity leave out a node
# whose host cannot hold all the GPUs it could give, so their ring waits
# for the first jobs to end (valid, if cautious).
cat >$TMP/t.csv <<'CSV'
id,submit,gpus,duration,type,class,priority,gpu_milli,cpu_milli,mem_mib
hog1,0,1,1000,single-card,BE,0,1000,60000,1024
hog2,0,1,1000,single-card,BE,0,1000,60000,1024
hog3,0,1,1000,single-card,BE,0,1000,60000,1024
ring,1,12,100,ring-allreduce,BE,0,1000,48000,1024
CSV
for p in bestfit first-fit random packing spread bw-max gpu-pair-score nic-affinity predicted-share; do
	echo "policy $p:"
	run simulate -c $ROOT/tests/data/clusters/dgx1.yaml $TMP/t.csv --policy $p \
		--csv $TMP/$p --quiet | grep -E "^gpuplan|exit"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
		$1 == "ring" { printf "  ring start %s nodes ", $col["start"] }' $TMP/$p/jobs.csv
	grep '^ring,' $TMP/$p/jobs.csv | grep -o '"[^"]*"$'
done
