# The option engine: options after operands, --opt=value, durations with
# units, "did you mean" for options, subcommands and commands, one range
# and message for an option several commands take.
J=tests/data/jobs/good-vgg16.yaml
run estimate $J --json --memory-margin=10 >$TMP/a.json
run estimate --json --memory-margin 10 $J >$TMP/b.json
cmp $TMP/a.json $TMP/b.json && echo "same output, options before or after the job"
run estimate $J --jsn
run estimate $J --memory-margin=
run estimate $J --json=yes
run estimate $J --mem 5 --json >/dev/null
run estimate -- $J
run estimat $J
run failures fitt x.csv
run env bnd
run place --seed=x $J
run place --lock-timeout=2d $J
run release --state $TMP/none.yaml --job j --lock-timeout=1.5m
run env status -c tests/data/envs/cluster.yaml --envs tests/data/envs/envs.yaml --state $TMP/s.yaml --lock-timeout 2x
run env reclaim -c tests/data/envs/cluster.yaml --envs tests/data/envs/envs.yaml --state $TMP/s.yaml --now=1m --heartbeat-timeout=30s --json
run env reclaim -c tests/data/envs/cluster.yaml --envs tests/data/envs/envs.yaml --state $TMP/s.yaml --now 60 --heartbeat-timeout 30 --json
