# type llm jobs: iteration time, MFU and tokens/s per GPU on the layout
# placed by parallel group, on given GPUs, and what bounds it.
D=tests/data/llm/jobs
run perf $D/llama3-70b-64.yaml
run perf $D/llama3-70b-64.yaml --on 'h100-r4-[0-3],h100-r5-[0-3]' --json
run perf $D/llama3-8b-fsdp.yaml --policy spread
run perf $D/mixtral-8x7b-ep.yaml
run perf $D/gpt3-175b-3d.yaml
run place $D/llama3-70b-64.yaml
# the README's example, as printed there
run estimate workloads/jobs/llama3-70b-64.yaml
run perf workloads/jobs/llama3-70b-64-pp2.yaml
run perf workloads/jobs/llama3-70b-128.yaml
run perf workloads/jobs/llama3-70b-128.yaml --gemm-efficiency 0.5 --json
run perf workloads/jobs/llama3-70b-128.yaml --gemm-efficiency 2
# a trace of llm jobs: iteration times from the model
run simulate tests/data/llm/traces/llm-mix.csv --csv $TMP/sim
cut -d, -f1-12 $TMP/sim/jobs.csv
run simulate tests/data/llm/traces/llm-bad.csv
# a multi-node NVLink domain (GB200 NVL72): TP groups of 8 span two trays
run perf -c tests/data/llm/nvl72-cluster.yaml tests/data/llm/jobs/llama3-70b-64.yaml
