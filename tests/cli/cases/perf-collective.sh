# gpuplan perf --collective: the nccl-tests anchors (8 x A100 NV12
# ~230 GB/s busbw, 8 x H100 NV18 ~370, two nodes with 1.6 Tb/s of NICs
# ~192), a PCIe-only box, the other collectives, and command-line errors.
C=tests/data/perf/cluster.yaml
run perf -c topologies/example-cluster.yaml --collective allreduce --size 1GiB --on a100-r0-0:0-7
run perf -c topologies/example-cluster.yaml --collective allreduce --size 1GiB --on h100-r4-0:0-7 --json
run perf -c $C --collective allreduce --size 1GiB --on a:0-7,b:0-7 --json
run perf -c $C --collective allreduce --size 1GiB --on a,c --algo hierarchical
run perf -c $C --collective allreduce --size 256MB --on pc
run perf -c $C --collective allgather --size 256MB --on pc:1,2,3,4
run perf -c $C --collective reducescatter --size 4096 --on a:0,2,4,6
run perf -c $C --collective broadcast --size 1GB --on a:0-3,b:4-7
run perf -c $C --collective allreduce --size 1GiB --on a:3
run perf -c $C --collective allreduce --size 1GiB --on nosuch:0-7
run perf -c $C --collective allreduce --size 1GiB --on a:0-8
run perf -c $C --collective allreduce --size 1GiB --on a:0,0
run perf -c $C --collective allreduce --size lots --on a
run perf -c $C --collective alltoall --size 1GiB --on a
run perf -c $C --collective allreduce --on a
run perf -c $C --collective allreduce --size 1GiB --on a --algo magic
run perf -c $TMP/none.yaml --collective allreduce --size 1GiB --on a
# One process driving eight RTX 4090 without peer access (nccl-tests -g 8):
# 7 more kernel launches of 2 us on top of the host-memory ring.
R=tests/data/clusters/rtx4090.yaml
run perf -c $R --collective allreduce --size 8 --on r4090 --algo ring
run perf -c $R --collective allreduce --size 8 --on r4090 --algo ring --gpus-per-process 8
run perf -c $C --collective allreduce --size 8 --on a --gpus-per-process 0
