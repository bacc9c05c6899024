# The reason column of jobs.csv comes from what the engine recorded: both
# nodes of tests/data/sim/small-cluster.yaml fail for good at 50 s, so the
# first job is interrupted and every job is left queued with nothing up
# to run it: "still queued", not "the policy places it nowhere".
printf 'time_s,node,gpu,kind,repair_s\n50,n-0,,node,\n50,n-1,,node,\n' >$TMP/down.csv
$GPUPLAN simulate -c tests/data/sim/small-cluster.yaml tests/data/traces/tiresias-60_job.csv \
	--limit 4 --failures $TMP/down.csv --csv $TMP/out --quiet >/dev/null
cut -d, -f1,8,18 $TMP/out/jobs.csv
