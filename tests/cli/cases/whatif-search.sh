# The README's question in one command: how many H100 nodes must be added
# so that the Philly slice's p90 queue delay drops below one hour?  Bisection
# over 0..64 with one worker (plain halving) and with two (two probes per
# round) gives the same answer; the grid over 0, 8, 16, 32 agrees (16 is the
# cheapest of those).
run whatif workloads/whatif-add-h100.yaml --search -j 1
run whatif workloads/whatif-add-h100.yaml --search -j 2 --json | grep -A3 '"add_nodes"' | head -4
sed 's/counts: 0..64/counts: [0, 8, 16, 32]/' workloads/whatif-add-h100.yaml >$TMP/grid.yaml
cp workloads/philly-2017-11-29.csv $TMP/
sed -i 's|\.\./topologies|'"$ROOT"'/topologies|' $TMP/grid.yaml
run whatif $TMP/grid.yaml -j 2 --svg $TMP/plot.svg | tail -3
grep -c '<polyline' $TMP/plot.svg
# the SLO bound is a line of its own (black, dash-dotted, in the legend too),
# not a series; the chosen configuration is ringed
grep -c 'stroke="#000" stroke-width="1.5" stroke-dasharray="10 4 2 4"' $TMP/plot.svg
grep -o '>chosen[^<]*<\|r="7" fill="none"' $TMP/plot.svg
# An SLO nothing meets: exit 1, best is null.
sed 's/max: 1h/max: 1s/; s/counts: 0..64/counts: [0, 4]/' workloads/whatif-add-h100.yaml >$TMP/never.yaml
sed -i 's|\.\./topologies|'"$ROOT"'/topologies|' $TMP/never.yaml
run whatif $TMP/never.yaml -j 1 | tail -2
run whatif $TMP/never.yaml -j 1 --json | grep '"best"'
