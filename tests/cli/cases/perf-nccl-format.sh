# perf --sweep --format nccl-tests: nccl-tests' own columns (size, count,
# type, redop, root, then time, algbw, busbw, #wrong out-of-place and
# in-place) and its 'Avg bus bandwidth' line, so that a measured run diffs
# against the model.  count is in 4-byte floats, per rank for all-gather.
run perf --collective allreduce --sweep 8B:32MiB:16 --on h100-r4-0:0-7 --format nccl-tests
run perf --collective allgather --sweep 1MiB:2MiB --on h100-r4-0:0-7 --format nccl-tests | sed -n '6,7p'
run perf --collective broadcast --sweep 1MiB:1MiB --on h100-r4-0:0-7 --format nccl-tests | sed -n '6p'
# the default layout is unchanged; --format is for --sweep
run perf --collective allreduce --size 1MiB --on h100-r4-0 --format nccl-tests
run perf --collective allreduce --sweep 8B:64B --on h100-r4-0 --format nccl
run perf --collective allreduce --sweep 8B:64B --on h100-r4-0 --format nccl-tests --json
