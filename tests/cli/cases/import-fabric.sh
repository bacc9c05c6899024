# The fabric on import: Slurm's topology.conf (tree, block), scontrol show
# topology, ibnetdiscover with two rails; a messy file's located warnings;
# a multi-node job places with the fabric and never without it.
F=tests/data/fabric
run import slurm $F/slurm-dev.conf --fabric $F/slurm-man-tree.conf --fabric-tech ib-hdr -o $TMP/tree.yaml
sed -n '/^fabric:/,$p' $TMP/tree.yaml
run import slurm $F/slurm-dev.conf $F/scontrol-show-topology.txt --fabric-tech ib-hdr -o $TMP/show.yaml -q
cmp $TMP/tree.yaml $TMP/show.yaml >/dev/null || diff $TMP/tree.yaml $TMP/show.yaml | grep -v '^[<>] #' | head -5
run import slurm $F/slurm-node.conf --fabric $F/slurm-man-block.conf -o $TMP/block.yaml -q
sed -n '/^fabric:/,$p' $TMP/block.yaml
run import slurm $F/slurm-tux.conf $F/slurm-guide-tux.conf -o $TMP/tux.yaml -q
sed -n '/^fabric:/,$p' $TMP/tux.yaml
run import slurm $F/slurm-gpu.conf $F/ibnetdiscover-rails.txt -o $TMP/ib.yaml
sed -n '/^fabric:/,$p' $TMP/ib.yaml
echo "== a messy file: every oddity warned where it is, and resolved"
run import slurm $F/slurm-dev.conf $F/messy.conf -o $TMP/messy.yaml
sed -n '/^fabric:/,$p' $TMP/messy.yaml
echo "== a multi-node job: with the fabric, and without"
printf 'name: big\ntype: ring-allreduce\ngpus: 32\ngpu_memory_gib: 40\n' >$TMP/big.yaml
run place -c $TMP/tree.yaml $TMP/big.yaml | sed -n '1,3p'
run import slurm $F/slurm-dev.conf -o $TMP/none.yaml 2>&1 | grep fabric
run place -c $TMP/none.yaml $TMP/big.yaml | sed -n '3p'
echo "== not a fabric"
printf 'SwitchName=s0 Nodes=dev[5-1]\n' >$TMP/bad.conf
run import slurm $F/slurm-dev.conf --fabric $TMP/bad.conf -o $TMP/x.yaml
printf 'SwitchName=s0 Nodes\n' >$TMP/bad2.conf
run import slurm $F/slurm-dev.conf --fabric $TMP/bad2.conf -o $TMP/x.yaml
run import slurm $F/slurm-dev.conf --fabric $F/slurm-dev.conf -o $TMP/x.yaml
echo "== topology.yaml: the cluster_default topology (Slurm's man page, Slinky's docs)"
run import slurm $F/slurm-node16.conf $F/topology-yaml-slurm-man.yaml --fabric-tech ib-hdr -o $TMP/ty1.yaml
sed -n '/^fabric:/,$p' $TMP/ty1.yaml
run import slurm $F/slurm-node4.conf --fabric $F/topology-yaml-slinky.yaml -o $TMP/ty2.yaml -q
sed -n '/^fabric:/,$p' $TMP/ty2.yaml
run import slurm $F/slurm-dev.conf $F/messy-topology.yaml -o $TMP/ty3.yaml
sed -n '/^fabric:/,$p' $TMP/ty3.yaml
echo "== Kubernetes node labels: AWS, GKE, and GKE through a Kueue Topology"
run import k8s $F/k8s-nodes-aws-labels.json -o $TMP/aws.yaml
sed -n '/^fabric:/,$p' $TMP/aws.yaml
run import k8s $F/k8s-nodes-gke-labels.yaml -o $TMP/gke.yaml 2>&1 | grep -v "catalog model\|default topology\|affinity"
sed -n '/^fabric:/,$p' $TMP/gke.yaml
run import k8s $F/k8s-nodes-gke-labels.yaml --fabric $F/kueue-topology-gke.yaml -o $TMP/kueue.yaml -q
sed -n '/^fabric:/,$p' $TMP/kueue.yaml
echo "== a 16-GPU job on the labelled AWS nodes: the two under one layer-1 node"
printf 'name: two\ntype: ring-allreduce\ngpus: 16\ngpu_memory_gib: 40\n' >$TMP/two.yaml
run place -c $TMP/aws.yaml $TMP/two.yaml | sed -n '3,5p'
