# type llm jobs: memory per GPU with its breakdown, a suggested layout
# when the job does not fit, and located errors for invalid layouts.
D=tests/data/llm/jobs
run estimate $D/llama3-70b-64.yaml
run estimate $D/llama3-70b-dp-only.yaml
run estimate $D/llama3-70b-64-unknown-gpu.yaml
run estimate --json $D/llama3-70b-dp-only.yaml
run estimate $D/llama3-8b-fsdp.yaml
run estimate $D/mixtral-8x7b-ep.yaml
run estimate $D/llama3-405b-cp.yaml
run estimate --memory-margin 10 $D/gpt3-175b-3d.yaml
for f in $D/bad-*.yaml; do
	run estimate $f
done
