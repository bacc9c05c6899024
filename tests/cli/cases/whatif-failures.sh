# Failures as axes (tests/data/whatif/failures.yaml): node MTBF 0 / 2000 /
# 500 hours x recovery restart / replace, 2 seeds, SLO goodput >= 95 %.
# Replacement keeps the goodput up where checkpoint-restart loses work.
run whatif tests/data/whatif/failures.yaml -j 2 --metric goodput --db $TMP/f.sqlite
sqlite3 $TMP/f.sqlite 'SELECT mtbf_node, recovery, seed, round(goodput, 4), round(lost_gpu_hours, 1) FROM runs ORDER BY mtbf_node, recovery, seed'
printf 'cluster: x.yaml\ntrace: t.csv\nrecovery: [restart, reboot]\n' >$TMP/bad.yaml
run whatif $TMP/bad.yaml
