# topo show for whole clusters: summary, fabric tree, grouped weights.
run topo show -c topologies/example-cluster.yaml
run topo show -c topologies/hetero-cluster.yaml
run topo show -c tests/data/cluster/inline-tree.yaml --json
# the GPUs by model in the same order as validate: most first
for c in topologies/example-cluster.yaml topologies/hetero-cluster.yaml; do
	a=$($GPUPLAN topo show -c $c | sed -n 's/^  GPUs      [0-9]*: //p')
	b=$($GPUPLAN validate $c | sed 's/.* GPUs (\([^)]*\)).*/\1/')
	[ "$a" = "$b" ] && echo "same order: $a" || echo "topo show: $a; validate: $b"
done
