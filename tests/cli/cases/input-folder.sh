# A folder given where a file belongs is said in words (exit 4, an I/O
# error), whichever loader reads it.
mkdir $TMP/d
run simulate -c topologies/example-cluster.yaml $TMP/d --quiet
run simulate -c $TMP/d workloads/philly-2017-11-29.csv --quiet
run place -c topologies/example-cluster.yaml $TMP/d
run topo import $TMP/d
run validate $TMP/d
