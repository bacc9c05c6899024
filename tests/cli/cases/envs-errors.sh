# Bad environments files, templates and state files: located errors (exit 3);
# usage errors (exit 2).
C=tests/data/envs/cluster.yaml
printf 'environments:\n  - {name: a, gpus: 1}\n' >$TMP/e1.yaml
printf 'environments:\n  - {name: a, gpus: 1, gpu_memory_gib: 1, pool: nowhere}\n' >$TMP/e2.yaml
printf 'environments:\n  - {name: a, gpus: 1, gpu_memory_gib: 1, pool: [n0, zz]}\n' >$TMP/e3.yaml
printf 'environments:\n  - {name: a, gpus: 1, gpu_memory_gib: 1}\n  - {name: a, gpus: 2, gpu_memory_gib: 1}\n' >$TMP/e4.yaml
printf 'environments:\n  - {name: a, gpu: 1, gpu_memory_gib: 1}\n' >$TMP/e5.yaml
for f in e1 e2 e3 e4 e5; do run env status -c $C --envs $TMP/$f.yaml --state $TMP/s.yaml; done
printf '{"sessions": [{"id": "x", "start_tick": 1, "stop_tick": 9, "max_resource_request": {"gpus": 1},\n "trainings": [{"start_tick": 2, "duration_in_ticks": 3, "end_tick": 6, "gpus": 1}]}]}\n' >$TMP/t1.json
printf '{"sessions": [{"id": "x", "start_tick": 1, "stop_tick": 9, "max_resource_request": {"gpus": 1},\n "trainings": [{"start_tick": 2, "duration_in_ticks": 3, "gpus": 4}]}]}\n' >$TMP/t2.json
printf '{"sessions": [{"id": "x", "start_tick": 1, "stop_tick": 9,\n "max_resource_request": {"gpus": 1}, "trainings": [}]}\n' >$TMP/t3.json
printf '{"workload": 1}\n' >$TMP/t4.json
for f in t1 t2 t3 t4; do run simulate --envs static $TMP/$f.json; done
printf 'tasks:\n  - {env: alice, task: t, memory_mib: 1, gpus: [{node: n9, gpu: 0}]}\n' >$TMP/s1.yaml
printf 'tasks:\n  - {env: dora, task: t, memory_mib: 1, gpus: [{node: n1, gpu: 0}]}\n' >$TMP/s2.yaml
printf 'tasks:\n  - {env: bob, task: t, memory_mib: 1, gpus: [{node: h0, gpu: 0}]}\n  - {env: bob, task: u, memory_mib: 1, gpus: [{node: h0, gpu: 1}]}\n' >$TMP/s3.yaml
for f in s1 s2 s3; do run env status -c $C --envs tests/data/envs/envs.yaml --state $TMP/$f.yaml; done
run simulate --envs sometimes workloads/adobe-sensei-june-1-2-2021.json
run simulate --envs static workloads/philly-2017-11-29.csv
run simulate --envs static --environments tests/data/envs/envs.yaml workloads/adobe-sensei-june-1-2-2021.json
run env bind -c $C --envs tests/data/envs/envs.yaml --state $TMP/s.yaml --env alice
run env frob
echo "a failed bind with --commit leaves the state it created, empty (a client waiting on its lock may use it):"
run env bind -c $C --envs tests/data/envs/envs.yaml --state $TMP/new.yaml --env bob --task b --gpus 2 --commit
wc -c <$TMP/new.yaml
