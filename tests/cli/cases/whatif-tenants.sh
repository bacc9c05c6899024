# A what-if spec sets the tenants file (tests/data/whatif/tenants.yaml).
# fifo, by hand: a3 (no quota at 15) heads the queue and holds b1 behind
# it until a2 ends at 60: a3 60-100, b1 60-90; delays 0, 0, 45, 40 (mean
# 21.25 s).  fifo-skip passes a3 over: b1 runs 20-50 (mean 11.25 s).
run whatif tests/data/whatif/tenants.yaml -j 1 --db $TMP/t.sqlite | tail -3
sqlite3 $TMP/t.sqlite 'SELECT round(queue_delay_mean, 3) FROM runs ORDER BY 1'
