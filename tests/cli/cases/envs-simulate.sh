# simulate --envs on the Adobe notebook template: the three modes on the
# example cluster, then a 48-GPU cluster without sharing (K = 1) where
# binding costs waits, and JSON keys of the environments object.
T=workloads/adobe-sensei-june-1-2-2021.json
run simulate --envs static,bind-at-start,idle-timeout:30 $T
run simulate --envs bind-at-start --task-threshold 1 --max-gpus 48 $T
"$GPUPLAN" simulate --envs bind-at-start,idle-timeout:10 --client-failures 0.5 --seed 7 --json - $T \
	| jq -c '.environments | {mode, peak_gpus, static_peak_gpus, gpus_saved, rebinds, bind_failures, task_wait_s, reclaimed_by_heartbeat, client_failures, tasks_killed, utilization_weighted}'
"$GPUPLAN" simulate --envs bind-at-start,idle-timeout:10 --json - $T | jq -c '[.environments_by_mode[] | .mode], (.environments | keys)'
run simulate --envs static,bind-at-start --svg $TMP/svg --csv $TMP/csv $T >/dev/null
head -c 200 $TMP/svg/environments.svg | head -3
head -3 $TMP/csv/environments-timeline.csv
# output folders are made with their parents, as in simulate's trace mode
run simulate --envs static --csv $TMP/deep/er/csv $T >/dev/null
ls $TMP/deep/er/csv
