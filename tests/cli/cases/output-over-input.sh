# An output never replaces a file the run read, and two outputs of one
# run never share a path: refused as usage errors (exit 2) before
# anything is written, the input left byte for byte as it was.
C=topologies/example-cluster.yaml
cp workloads/philly-2017-11-29.csv $TMP/t.csv
run simulate -c $C $TMP/t.csv --quiet --limit 3 --json $TMP/t.csv | tail -1
cmp workloads/philly-2017-11-29.csv $TMP/t.csv && echo "trace intact"
cp tests/data/envs/cluster.yaml $TMP/c.yaml
run simulate -c $TMP/c.yaml $TMP/t.csv --quiet --limit 3 --html $TMP/./c.yaml | tail -1
cmp tests/data/envs/cluster.yaml $TMP/c.yaml && echo "cluster intact"
run simulate -c $C $TMP/t.csv --quiet --limit 3 --json $TMP/s.json --html $TMP/s.json | tail -1
ls $TMP/s.json 2>/dev/null || echo "no s.json"
cp workloads/jobs/llama2-7b-node.yaml $TMP/j.yaml
run perf -c $C $TMP/j.yaml --html $TMP/j.yaml | tail -1
cmp workloads/jobs/llama2-7b-node.yaml $TMP/j.yaml && echo "job intact"
S=topologies/a100-pcie-2gpu-2nic-della-princeton.txt
cp $S $TMP/s.txt
run topo import $TMP/s.txt -o $TMP/s.txt
cmp $S $TMP/s.txt && echo "snapshot intact"
