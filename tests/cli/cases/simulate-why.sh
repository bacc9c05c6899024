# Jobs that did not complete say why, in the text and on the page: one line
# per reason, the most frequent first (ties: the earlier first job), its
# count and the first job it hit; past four reasons, one line counts the
# rest (jobs.csv's reason column names every job).  The small cluster has
# 8 GPUs: B and E ask 16, F..I ask 9..12.
printf 'id,submit,gpus,duration\nA,0,2,100\nB,5,16,50\nC,6,1,10\nE,7,16,10\nF,8,9,10\nG,9,10,10\nH,10,11,10\nI,11,12,10\n' >$TMP/t.csv
run simulate -c tests/data/sim/small-cluster.yaml $TMP/t.csv --quiet --csv $TMP/out --html $TMP/t.html
cut -d, -f1,8,16 $TMP/out/jobs.csv
sed -n '/<h3>Why jobs/,/^<div/p' $TMP/t.html | grep -v '^<div'
# a job of the Gavel trace names a model the performance model does not
# know: it "failed" for want of a run time, not of a failure
run simulate -c tests/data/sim/small-cluster.yaml tests/data/traces/gavel-msr-23dbec.trace --quiet |
	sed -n '/^jobs/,/^$/p'
# the JSON carries every reason (the text's four and the rest), and so do
# compare's per-seed summaries
$GPUPLAN simulate -c tests/data/sim/small-cluster.yaml $TMP/t.csv --quiet --json - | jq -c '.not_completed[]'
$GPUPLAN compare -c tests/data/sim/small-cluster.yaml $TMP/t.csv --quiet -j 1 --json | jq -c '.runs[0].seeds[0].not_completed | length'
# a run where every job completed has no such key
$GPUPLAN simulate -c tests/data/sim/small-cluster.yaml tests/data/sim/backfill.csv --quiet --json - | jq 'has("not_completed")'
