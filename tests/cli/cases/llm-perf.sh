# type llm jobs: iteration time, MFU and tokens/s per GPU on the layout
# placed by parallel group, on given GPUs, and what bounds it.
D=tests/data/llm/jobs
run perf $D/llama3-70b-64.yaml
run perf $D/llama3-70b-64.yaml --on 'h100-r4-[0-3],h100-r5-[0-3]' --json
run perf $D/llama3-8b-fsdp.yaml --policy spread
run perf $D/mixtral-8x7b-ep.yaml
run perf $D/gpt3-175b-3d.yaml
run place $D/llama3-70b-64.yaml
