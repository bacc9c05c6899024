# simulate with predicted sharing: exclusive GPUs vs predicted shares vs predicted
# shares with the QoS monitor, on a Gavel trace (models named) with 30 %
# of the jobs made LS; then the JSON block and the usage errors.
T=tests/data/traces/gavel-msr-23dbec.trace
run simulate $T -c tests/data/sim/small-cluster.yaml --tick 3600 --policy bestfit --exclusive --interference --ls-fraction 0.3
run simulate $T -c tests/data/sim/small-cluster.yaml --tick 3600 --policy predicted-share --ls-fraction 0.3
run simulate $T -c tests/data/sim/small-cluster.yaml --tick 3600 --policy predicted-share --qos-tick 60 --ls-fraction 0.3 --util-error 20
run simulate $T -c tests/data/sim/small-cluster.yaml --tick 3600 --policy predicted-share --qos-tick 60 --ls-fraction 0.3 --json - | sed -n '/"qos"/,/}/p'
run simulate $T --policy predicted-share --qos-tick 0
run simulate $T --policy predicted-share --qos-tick 60 --queue las
run simulate $T --policy predicted-share --predict-models /nonexistent
# the usage text is printed as is: one percent sign, not a printf-doubled one
"$GPUPLAN" simulate --help | grep -A1 -- "^  --qos-tick"
