# A full file system: the message says so (it said only "write error" or
# "No space left on device" at one of several files), no file of the set
# is replaced, and the output folders the run made are gone again (they
# were left empty).  /dev/full fails every write with ENOSPC.
C=tests/data/sim/small-cluster.yaml
T=tests/data/traces/gpuplan-example.csv
run simulate -c $C $T --csv $TMP/new/runs --svg $TMP/new/charts --json /dev/full
ls $TMP
# the set is all or nothing: the CSV folder that existed keeps its old files
mkdir $TMP/old
echo old >$TMP/old/jobs.csv
run simulate -c $C $T --csv $TMP/old --json /dev/full
cat $TMP/old/jobs.csv
ls $TMP/old
run compare -c $C $T --policies bestfit,first-fit --csv $TMP/cmp/x --html /dev/full | tail -2
ls $TMP
