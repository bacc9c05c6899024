# The Adobe notebook template counted by hand (jq, not gpuplan): reserved
# GPU-minutes = sum of max_resource_request.gpus x (stop_tick - start_tick),
# GPU-minutes inside cells = sum of gpus x duration_in_ticks (1 tick = 1
# minute), and the utilization-weighted ones.  simulate --envs static must
# report the same numbers.
T=workloads/adobe-sensei-june-1-2-2021.json
reserved=$(jq '[.sessions[] | .max_resource_request.gpus * (.stop_tick - .start_tick)] | add' "$T")
busy=$(jq '[.sessions[].trainings[] | .gpus * .duration_in_ticks] | add' "$T")
weighted=$(jq '[.sessions[].trainings[] | ([.gpu_utilizations[].utilization] | add // 0) / 100 * .duration_in_ticks] | add * 1000 | round / 1000' "$T")
echo "by hand: reserved $reserved, inside cells $busy, weighted $weighted GPU-minutes"
"$GPUPLAN" simulate --envs static --json $TMP/r.json "$T" >/dev/null
got_r=$(jq '.environments.reserved_gpu_minutes' $TMP/r.json)
got_b=$(jq '.environments.busy_gpu_minutes' $TMP/r.json)
got_w=$(jq '.environments.weighted_busy_gpu_minutes' $TMP/r.json)
got_bound=$(jq '.environments.bound_gpu_minutes' $TMP/r.json)
echo "simulate static: reserved $got_r, busy $got_b, weighted $got_w, bound $got_bound"
[ "$(jq -n "$got_r == $reserved and $got_b == $busy and $got_bound == $reserved and (($got_w - $weighted) | fabs) < 0.002")" = true ] \
	&& echo "hand count matches" || echo "MISMATCH"
