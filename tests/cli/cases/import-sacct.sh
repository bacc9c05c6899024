# Job history as a trace: every sacct form (-P with a header, fixed width,
# headerless with --fields and a two-byte delimiter, --json) and a
# Kubernetes pod list; the record rules (steps, array tasks, het parts,
# a repeated job, never started, still running, no GPUs); then the dump
# replayed directly; real samples that cannot be replayed say why.
S=tests/data/sacct
run import sacct $S/rules.P.txt -o $TMP/rules.csv
cat $TMP/rules.csv
run import sacct $S/rules.P.txt --all-jobs -o - -q
run import sacct $S/rules.fixed.txt -o - -q
run import sacct --delimiter :: --fields JobID,Submit,Start,End,ElapsedRaw,TimelimitRaw,State,AllocTRES,NodeList \
	$S/rules.noheader.txt -o -
run import sacct $S/rules.json $S/pods-history.json -o -
run import sacct $S/slyme-parallel.noheader.P.txt --all-jobs -o - \
	--fields User,JobID,JobName,State,Partition,NCPUS,NNodes,CPUTime,TotalCPU,UserCPU,SystemCPU,ReqMem,MaxRSS,Submit,Start,End,NodeList
echo "== a real Slurm's own record: scontrol show job (one line, several lines), jobcomp"
run import sacct $S/scontrol-show-job-o.txt -o $TMP/o.csv
cat $TMP/o.csv
run import sacct $S/scontrol-show-job.txt -o $TMP/m.csv -q
cmp $TMP/o.csv $TMP/m.csv && echo "one line or several: the same trace"
run import sacct $S/jobcomp-filetxt.log --all-jobs -o - -q
cat $S/rules.P.txt | run import sacct - -o $TMP/stdin.csv
cmp $TMP/rules.csv $TMP/stdin.csv && echo "standard input: the same trace"
echo "== the dump and its trace replay alike"
run simulate $S/rules.P.txt --json $TMP/a.json
run simulate $TMP/rules.csv --json $TMP/b.json
grep -v -e '"format"' -e '"left_out' -e '"path"' $TMP/a.json >$TMP/a2.json
grep -v -e '"format"' -e '"left_out' -e '"path"' $TMP/b.json >$TMP/b2.json
cmp $TMP/a2.json $TMP/b2.json && echo "the same results"
echo "== the record beside the replay: jobs.csv and the chart"
run simulate $S/rules.P.txt --csv $TMP/csv --svg $TMP/svg >/dev/null
head -3 $TMP/csv/jobs.csv
ls $TMP/svg
grep -c '<polyline' $TMP/svg/queue-delay-recorded.svg
run simulate $S/rules.P.txt --json - | sed -n '/"recorded_vs_simulated"/,/^  }/p' | head -30
echo "== Slurm's rules: passes every 3 s; backfill planning with time limits"
run import slurm $S/scontrol-show-node.txt -o $TMP/one.yaml -q
for opt in "" "--sched-interval 3" "--queue backfill" "--queue backfill --sched-interval 3"; do
	echo "-- $opt"
	run simulate -c $TMP/one.yaml $TMP/o.csv $opt --csv $TMP/r | sed -n '/^recorded vs/,/^start order:/p'
	cut -d, -f1,3,19 $TMP/r/jobs.csv | tr '\n' ' '; echo
done
run simulate $TMP/o.csv --sched-interval -1
echo "== what cannot be replayed"
run import sacct $S/slurm-mail-142-mig.P.txt -o $TMP/x.csv
run import sacct $S/soperator-321.fixed.txt -o $TMP/x.csv
run import sacct $S/rules.noheader.txt -o $TMP/x.csv
test -e $TMP/x.csv || echo "no file written"
run import sacct -o $TMP/x.csv
run import sacct $S/rules.P.txt
echo "== a record that starts a job before its submit"
# b's record starts it 30 s before its submit (clock skew): its recorded
# queue delay is 0 in the check and in jobs.csv alike (recorded_start keeps
# the 20 as recorded); a waited 60 s: mean 30 s, no wait 50 %.
printf 'id,submit,gpus,duration,recorded_start\na,0,1,100,60\nb,50,1,100,20\n' >$TMP/skew.csv
run simulate -c tests/data/sim/small-cluster.yaml $TMP/skew.csv --csv $TMP/k | sed -n '/^recorded vs/,/^simulated/p'
cut -d, -f1,2,3,19,20 $TMP/k/jobs.csv
