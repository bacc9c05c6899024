# Malformed input gets FILE:LINE:COL errors (exit 3); real samples with one
# value broken.  Usage errors exit 2.
S=tests/data/slurm
K=tests/data/k8s
sed 's/Gres=gpu:m60:8/Gres=gpu:m60:x8/' $S/scontrol-d-show-node-huji.txt >$TMP/bad-gres.txt
run import slurm $TMP/bad-gres.txt -o $TMP/c.yaml
sed 's/GresUsed=gpu:rtx2080:4(IDX:0-3)/GresUsed=gpu:rtx2080:4(IDX:0-3/' $S/scontrol-d-show-node-huji.txt >$TMP/bad-idx.txt
run import slurm $TMP/bad-idx.txt -o $TMP/c.yaml
sed 's/CPUTot=16/CPUTot=sixteen/' $S/scontrol-d-show-node-huji.txt >$TMP/bad-cpu.txt
run import slurm $TMP/bad-cpu.txt -o $TMP/c.yaml
sed 's/cortex-\[01-05\]/cortex-[05-01]/' $S/slurm.conf-huji-phoenix >$TMP/bad-range.conf
run import slurm $TMP/bad-range.conf -o $TMP/c.yaml
sed 's/Cores=\[0-3\]/Cores=[0-x]/' $S/gres.conf-slurm-test7.17.1 >$TMP/bad-gres.conf
run import slurm $S/slurm.conf-slurm-test7.17.1 $TMP/bad-gres.conf -o $TMP/c.yaml
sed 's/Mem=81920/Mem=lots/' $S/scontrol-show-job-d-huji.txt >$TMP/bad-mem.txt
run import slurm $S/scontrol-d-show-node-huji.txt $TMP/bad-mem.txt -o $TMP/c.yaml -q
head -4 $S/sinfo-gresused-labshare.txt | sed '4s/ *fb10dl07 *$//' | sed '1s/GRES_USED/GRES     /' >$TMP/bad.sinfo
run import slurm $TMP/bad.sinfo -o $TMP/c.yaml
sed 's/"cpu": "192"/"cpu": "lots"/' $K/nodes-gfd-mig.json >$TMP/bad-qty.json
run import k8s $TMP/bad-qty.json -o $TMP/c.yaml
sed '6s/"kind": "Node",/"kind": "Node"/' $K/nodes-gfd-mig.json >$TMP/bad-syntax.json
run import k8s $TMP/bad-syntax.json -o $TMP/c.yaml
echo "== wrong family, unknown text, usage"
run import slurm $K/pods-gpu.json -o $TMP/c.yaml
run import k8s $S/scontrol-show-node-dccn.txt -o $TMP/c.yaml
printf 'hello world\n' >$TMP/hello.txt
run import slurm $TMP/hello.txt -o $TMP/c.yaml
run import slurm $S/scontrol-show-node-dccn.txt
run import lsf $S/scontrol-show-node-dccn.txt -o $TMP/c.yaml
run import slurm - - -o $TMP/c.yaml </dev/null
run import slurm $S/scontrol-show-node-dccn.txt -o $TMP/c.yaml --topology a100
run import slurm $S/scontrol-show-node-dccn.txt -o $TMP/c.yaml --topology a100=topologies/dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt
ls $TMP | grep -c yaml
echo "== standard output: the summary goes to standard error"
run import slurm $S/scontrol-show-node-dccn.txt -o $TMP/o.yaml --state-out - -q
run import slurm $S/scontrol-show-node-dccn.txt -o - --state-out - -q
echo "== a GPU count past 32 bits is an error (it was read as 8)"
printf 'NodeName=n1 Gres=gpu:a100:4294967304 CPUTot=8 RealMemory=1000 State=IDLE\n' >$TMP/big.txt
run import slurm $TMP/big.txt -o $TMP/big.yaml
echo "== a busy GPU index past the node's GPUs is an error (it was dropped: a busy GPU looked free)"
sed 's/GresUsed=gpu:rtx2080:4(IDX:0-3)/GresUsed=gpu:rtx2080:4(IDX:0-2,7)/' $S/scontrol-d-show-node-huji.txt >$TMP/past.txt
run import slurm $TMP/past.txt -o $TMP/past.yaml
