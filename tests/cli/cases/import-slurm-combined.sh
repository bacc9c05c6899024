# One cluster from several files: HUJI's slurm.conf, its `scontrol -d show
# node` and `scontrol show job -d` (jobs on nodes outside the cluster are
# left out); Slurm's test7.17 slurm.conf with a gres.conf that has no
# NodeName (every node reads it: GPU CPU lists from Cores); stdin.
S=tests/data/slurm
run import slurm $S/slurm.conf-huji-phoenix $S/scontrol-d-show-node-huji.txt \
	$S/scontrol-show-job-d-huji.txt -o $TMP/huji.yaml --state-out $TMP/huji-state.yaml --name phoenix
cat $TMP/huji.yaml $TMP/huji-state.yaml
run validate $TMP/huji.yaml
run import slurm $S/slurm.conf-slurm-test7.17.1 $S/gres.conf-slurm-test7.17.1 -o $TMP/t1.yaml -q
sed -n '/^  "gpu-x8"/,/devices/p' $TMP/t1.yaml
cat $S/slurm.conf-slurm-test7.17.1 | run import slurm - $S/gres.conf-slurm-test7.17.3 -o $TMP/t3.yaml -q
grep -A3 'gpus:' $TMP/t3.yaml
# a real snapshot for the RTX 2080 nodes, by GRES type
run import slurm $S/scontrol-d-show-node-huji.txt -o $TMP/topo.yaml -q \
	--topology rtx2080=topologies/4gpu-nvlink-hybrid-nv1-nv2-no-nic-delos-hpi.txt
sed -n '/^  "rtx2080-x4"/,/^  "[a-z]/p' $TMP/topo.yaml
# by hostlist of node names; its CPU lists go past the nodes' 16 CPUs
run import slurm $S/scontrol-d-show-node-huji.txt -o $TMP/topo2.yaml \
	--topology 'cortex-[01-05]=topologies/dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt' 2>&1 |
	grep -E 'm60|exit'
grep -A6 '^  "m60-x8"' $TMP/topo2.yaml
