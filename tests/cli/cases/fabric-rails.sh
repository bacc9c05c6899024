# A rail-optimized fabric (tests/data/rails/superpod.yaml: DGX H100 nodes
# whose eight compute NICs reach eight leaves, one per rail; a1-a5 in
# group su1, b1-b2 in su2 with an HDR rail-7 leaf, a5 without rail 7).
# The tree lists the nodes on each rail; a 16-GPU job places on one rail
# group; the network bottleneck follows the rails each pair shares.
R=tests/data/rails/superpod.yaml
run topo show -c $R | sed -n '/^fabric/,/^$/p' | sed -n '1,4p;10,12p;19p'
run topo show -c $R --json | grep -m3 '"rail_node_list"'
printf 'name: two\ntype: ring-allreduce\ngpus: 16\ngpu_memory_gib: 40\n' >$TMP/two.yaml
run place -c $R $TMP/two.yaml | sed -n '3,4p'
for on in a1,a2 a1,a5 b1,b2 a1,b1; do
	echo "== $on"
	run perf -c $R --collective allreduce --size 1GiB --on $on | grep -e '^time' -e '^bottleneck'
done
echo "== a rail names a switch the fabric lacks, or is not a list"
sed -e "s|\.\./\.\./\.\./topologies|$ROOT/topologies|" -e 's/su1-r6, null/su1-r6, su9-r7/' $R >$TMP/bad.yaml
run topo show -c $TMP/bad.yaml
sed -e "s|\.\./\.\./\.\./topologies|$ROOT/topologies|" \
	-e 's/rails: \[su1-r0, su1-r1, su1-r2, su1-r3, su1-r4, su1-r5, su1-r6, null\]/rails: su1-r0/' $R >$TMP/bad2.yaml
run topo show -c $TMP/bad2.yaml
echo "== imported: ibnetdiscover's two rails (each host's mlx5_0 and mlx5_1 on a leaf each)"
F=tests/data/fabric
run import slurm $F/slurm-gpu.conf $F/ibnetdiscover-rails.txt -o $TMP/ib.yaml -q
run topo show -c $TMP/ib.yaml | sed -n '/^fabric/,/^$/p'
run perf -c $TMP/ib.yaml --collective allreduce --size 1GiB --on gpu001,gpu002 | grep '^bottleneck'
echo "== imported: a topology.conf listing each node under one leaf per rail"
run import slurm $F/slurm-rails.conf --fabric $F/rails-topology.conf --fabric-tech ib-ndr -o $TMP/tc.yaml -q
sed -n '/^nodes:/,$p' $TMP/tc.yaml
run place -c $TMP/tc.yaml $TMP/two.yaml | sed -n '3,4p'
run perf -c $TMP/tc.yaml --collective allreduce --size 1GiB --on gpu001,gpu003 | grep '^bottleneck'
