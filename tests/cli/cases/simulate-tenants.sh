# Quotas with cohort borrowing on two 4-GPU nodes (tests/data/tenants/):
# a and b hold 4 GPUs of quota each in cohort c1, b lends at most 1 (it
# keeps 3), so the cohort can lend a + 1 = 5 GPUs of use to a.  By hand,
# queue fifo-skip: a1 (a, 4 GPUs) 0-100 fills n-0; a2 (a, 1) at 10 takes a
# to 5, all the cohort lends: 10-60; a3 (a, 1) at 15 would make 6: it
# waits although 3 GPUs are free; b1 (b, 2) at 20 is within b's quota:
# 20-50.  At 60 a2 ends and a3 starts: 60-100.  a borrows 1 GPU from 10
# to 100 (90 GPU-s = 0.025 GPU-hours), b lends it; a used 4 x 10 + 5 x 90
# = 490 GPU-s (0.136 h).  Without the lending limit a3 borrows at 15.
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv \
	--tenants tests/data/tenants/two-teams.yaml --queue fifo-skip --csv "$TMP/t" | tail -4
cat "$TMP/t/jobs.csv"
$GPUPLAN simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv \
	--tenants tests/data/tenants/two-teams.yaml --queue fifo-skip --json - |
	jq -c '.tenants[] | [.name, .gpu_hours, .borrowed_gpu_hours, .lent_gpu_hours, .peak_gpus, .quota_waits]'
sed '/lending_limit/d' tests/data/tenants/two-teams.yaml >"$TMP/nolimit.yaml"
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv \
	--tenants "$TMP/nolimit.yaml" --queue fifo-skip --csv "$TMP/n" --quiet >/dev/null
cut -d, -f1-4 "$TMP/n/jobs.csv"
echo "== errors"
printf 'tenants:\n  - {name: a, quota: {gpus: 4}}\n' >"$TMP/a.yaml"
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv --tenants "$TMP/a.yaml" --quiet
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv --tenants "$TMP/a.yaml" \
	--default-tenant a --quiet | grep -E '^(a |b |\[exit)'
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv --tenants "$TMP/a.yaml" \
	--default-tenant z --quiet
printf 'tenants:\n  - {name: a, quota: {gpus: many}}\n' >"$TMP/bad.yaml"
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv --tenants "$TMP/bad.yaml"
echo "== backfill with tenants (as under fifo-skip: nothing waits on GPUs)"
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv \
	--tenants tests/data/tenants/two-teams.yaml --queue backfill | tail -4
echo "== one format per column"
# GPU-hours at three decimals in every row (0.000, not 0, beside 0.111);
# peak GPUs with one decimal in every row once one peak is a fraction of a
# GPU: a holds 4 GPUs (4.0, 400 GPU-s = 0.111 h), b half of one (0.5,
# 25 GPU-s = 0.007 h).
printf 'id,submit,gpus,duration,tenant,gpu_milli\na1,0,4,100,a,1000\nb1,0,1,50,b,500\n' >"$TMP/frac.csv"
run simulate -c tests/data/sim/small-cluster.yaml "$TMP/frac.csv" \
	--tenants tests/data/tenants/two-teams.yaml --queue fifo-skip | tail -4
