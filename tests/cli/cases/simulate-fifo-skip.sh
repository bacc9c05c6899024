# fifo-skip on the six jobs of tests/data/sim/backfill.csv, by hand: A
# (4 GPUs) fills n-0 and B (2) half of n-1 at 0; C (8, ring) is passed
# over at 10 (nothing reserved for it); D (2) fits beside B at 20 (20-80);
# E (2) at 30 and F (LS, 1) at 40 find both nodes full.  At 80 D ends: F
# first (LS), 80-90; E needs 2 GPUs and n-1 has 1 free until F ends: E
# 90-290.  A ends at 100 but C needs both nodes: it starts when B ends,
# 300-350.  (EASY backfill reaches the same schedule here with a
# reservation; fifo holds D and E behind C until 350.)
run simulate -c tests/data/sim/small-cluster.yaml tests/data/sim/backfill.csv \
	--queue fifo-skip --csv "$TMP/s" --quiet >/dev/null
cat "$TMP/s/jobs.csv"
run compare -c tests/data/sim/small-cluster.yaml tests/data/sim/backfill.csv \
	--queues fifo,fifo-skip --quiet | grep -E '^(metric|JCT mean|makespan|\[exit)'
run simulate tests/data/sim/backfill.csv --queue fifo-skipp
