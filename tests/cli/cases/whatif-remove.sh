# remove_nodes, searched downwards: the most DGX A100 nodes that can go
# with p90 queue delay <= 1h under EASY backfill.  The metric is not
# monotone in the count (16 meets, 13-15 do not): the grid finds 16,
# --search (which assumes monotonicity) 12.
run whatif workloads/whatif-remove-a100.yaml -j 2 | tail -2
run whatif workloads/whatif-remove-a100.yaml -j 2 --search | tail -2
