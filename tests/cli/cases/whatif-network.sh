# A network what-if on a profiled trace (tests/data/whatif/network.yaml):
# Pollux workload-6 (jobs run by iterations, Sia-profiled models) on the
# example cluster without its H100 nodes, InfiniBand tree at eth-10 or
# ib-hdr.  Profiled jobs keep their measured compute and recompute
# communication over the placement's links, so the multi-node BERT jobs,
# communication-bound on 10 GbE, are shorter on HDR (tests/unit/test_whatif.c
# checks each job against the perf model).
run whatif tests/data/whatif/network.yaml -j 2 --csv $TMP/n.csv | tail -5
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } { print $c["fabric"] "," $c["jct_mean_s"] "," $c["makespan_s"] }' $TMP/n.csv
