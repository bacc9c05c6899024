# simulate --envs on a job trace with an environment column (Philly's
# virtual clusters) plus an environments file with quotas and pools.
T=workloads/philly-2017-11-29.csv
E=tests/data/envs/philly-vcs.yaml
run simulate --envs static,bind-at-start --environments $E $T
"$GPUPLAN" simulate --envs bind-at-start --task-threshold 1 --environments $E --json - $T \
	| jq -c '.trace_format, (.environments | {tasks, gpu_tasks, peak_gpus, static_peak_gpus, tasks_waited, bind_failures})'
printf 'environments:\n  - {name: 11cb48, gpus: 1, gpu_memory_gib: 1}\n' >$TMP/small.yaml
run simulate --envs static --environments $TMP/small.yaml $T
