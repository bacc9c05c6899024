# gpuplan env: heartbeats are per task.  alice binds t1 and t2 at 100 (the
# client's heartbeat at 100 covers both); t2 alone beats again at 104.  At
# 105 (timeout 5) t1 has been silent 5 s and is reclaimed (its GPU h0/GPU0
# freed), t2 (silent 1 s) stays; at 109 t2 goes too.
C=tests/data/envs/cluster.yaml
S="-c $C --envs tests/data/envs/envs.yaml --state $TMP/st.yaml"
run env bind $S --env alice --task t1 --memory 10GiB --at 100 --commit
run env bind $S --env alice --task t2 --memory 10GiB --at 100 --commit
run env heartbeat $S --task t2 --at 104 --commit
run env heartbeat $S --task t2 --at 103 --json
grep heartbeat: $TMP/st.yaml
run env reclaim $S --now 105 --commit
run env status $S | head -3
run env reclaim $S --now 108.999
run env reclaim $S --now 109 --json
run env heartbeat $S --task nope --at 1
run env heartbeat $S --env dora --task t2 --at 110
run env heartbeat $S --at 110
