# --html sections: with tenants, a Tenants section (jobs and waits, quota and use,
# a queue delay CDF per tenant) and a section per tenant, from the same
# figures as the text report (simulate-tenants.sh works them out: a waits
# 45 s for a3, so its mean is 15 s and its p90 36 s; a used 0.136
# GPU-hours, borrowed 0.025 that b lent).  Then the robust what-if page
# names its scenario axis.
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv \
	--tenants tests/data/tenants/two-teams.yaml --queue fifo-skip --quiet --html $TMP/t.html >/dev/null
grep -o '<p class="answer">.*</p>' $TMP/t.html
grep -o '<dt>tenants</dt><dd>[^<]*' $TMP/t.html
grep -o '<h2>[^<]*</h2>' $TMP/t.html | tr '\n' ' '; echo
grep -o '<caption>[^<]*</caption>' $TMP/t.html | sed -n '/tenant/p'
# the two tables, a row a line, cells separated by '|'
rows() { sed -n "/$1/,/<\/table>/p" $TMP/t.html | grep '^<tr>' | sed 's/<\/t[dh]><t[dh][^>]*>/|/g; s/<[^>]*>//g'; }
rows 'Jobs and waits per tenant'
rows 'Quota and use per tenant'
grep -o '>Queue delay CDF per tenant<' $TMP/t.html
echo "charts: $(grep -c '^<svg ' $TMP/t.html)"
# when no tenant waited, the answer names none of them (the first two jobs
# fit at once on the 8 GPUs: every p90 is 0)
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv --limit 2 \
	--tenants tests/data/tenants/two-teams.yaml --queue fifo-skip --quiet --html $TMP/t0.html >/dev/null
grep -o 'Of 2 tenants[^<]*' $TMP/t0.html
# without tenants: no such section
run simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/two-teams.csv --quiet --html $TMP/n.html >/dev/null
grep -c 'Tenant' $TMP/n.html
# the robust what-if page: the scenario among the inputs and under the frontier
run whatif tests/data/whatif/robust.yaml -j 2 --quiet --html $TMP/w.html 2>/dev/null | tail -n 1
grep -o '<p class="answer">.*</p>' $TMP/w.html
grep -o '<dt>[a-z]*</dt><dd>[^<]*' $TMP/w.html | sed -n '/scenario\|runs/p'
grep -o '<p>Scenario axes[^<]*' $TMP/w.html
# goodput against lost GPU-hours, explained on the page where they diverge
$GPUPLAN simulate -c tests/data/sim/small-cluster.yaml tests/data/traces/tiresias-60_job.csv \
	--mtbf-node 2 --recovery restart --failure-seed 3 --restart-cost 60 --quiet --html $TMP/f.html >/dev/null
grep -o 'the [0-9.]* GPU-hours lost are [^<]*\|waiting to run again [^<]*' $TMP/f.html
# with checkpoint pauses goodput misses more than the failures lost: the
# line says how much and why, not that goodput moves by the lost share
$GPUPLAN simulate -c tests/data/sim/small-cluster.yaml tests/data/traces/tiresias-60_job.csv \
	--mtbf-node 2 --recovery restart --failure-seed 3 --restart-cost 60 --checkpoint-interval 300 \
	--checkpoint-cost 30 --quiet | grep -o 'goodput [0-9.]* %$\|the [0-9.]* GPU-hours lost are [^;]*; goodput[^;]*'

