# gpuplan perf --sweep (the nccl-tests table), the point-to-point
# collectives, forced algorithms (NCCL_ALGO), a `nvidia-smi topo -p2p r`
# snapshot, host staging (all-reduce both ways, broadcast one way through
# a shared switch), fabric congestion, and their errors.
E=topologies/example-cluster.yaml
C=tests/data/perf/cluster.yaml
L=tests/data/perf/l4-p2p.yaml
run perf -c $E --collective allreduce --sweep 8B:8GiB:8 --on h100-r4-0:0-7
run perf -c $C --collective allreduce --sweep 1MiB:4MiB --on a:0,b:0 --json
run perf -c $E --collective allreduce --size 1GiB --on h100-r4-0:0-7 --algo ring
run perf -c $C --collective allreduce --size 1GiB --on a,b --algo tree
run perf -c $C --collective alltoall --size 1GiB --on a,b
run perf -c $C --collective sendrecv --size 1GiB --on a:0,1
run perf -c $L --collective allreduce --size 1GiB --on cns
run perf -c $L --collective broadcast --size 1GiB --on cns
run perf -c $L --collective allreduce --size 1GiB --on ok-0
run perf -c $L --collective allreduce --size 1GiB --on ok-0,ok-1,ok-2,ok-3 --algo ring
run perf -c $C --collective allreduce --sweep 8B --on a
run perf -c $C --collective allreduce --sweep 8B:1GiB:1 --on a
run perf -c $C --collective allreduce --sweep 8B:1GiB --size 1GiB --on a
run perf -c $C --collective gather --size 1GiB --on a
printf 'node_types:\n  t:\n    gpu_model: L4\n    p2p: p2p-bad.txt\n    gpus: [{id: GPU0}, {id: GPU1}]\n    links: [[X, PIX], [PIX, X]]\nnodes:\n  - {name: n, type: t}\n' >"$TMP/bad.yaml"
cp tests/data/perf/p2p-bad.txt "$TMP/"
run perf -c "$TMP/bad.yaml" --collective allreduce --size 1GiB --on n
printf 'node_types:\n  t:\n    gpu_model: L4\n    host_mem_gbs: lots\n    gpus: [{id: GPU0}, {id: GPU1}]\n    links: [[X, PIX], [PIX, X]]\nnodes:\n  - {name: n, type: t}\n' >"$TMP/hm.yaml"
run perf -c "$TMP/hm.yaml" --collective allreduce --size 1GiB --on n
