# Fractional sharing (FGD inflation mode) on the real openb default trace:
# FGD with seed 42 must reproduce the artifact's 95.29 % at 130 % arrived
# (tests/data/openb/SOURCES.md); then input and usage errors.
D=tests/data/openb
run simulate -c $D/openb_node_list_gpu_node.csv $D/openb_pod_list_default.csv --inflate 1.3 --policy fgd --seed 42
run simulate -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.5 --policy bestfit --seed 1 --json -
run simulate -c $D/bad_nodes.csv $D/tiny_pods.csv --inflate 1.3
run simulate -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.3 --policy best-fit
touch "$TMP/fx"
run simulate -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.3 --json "$TMP/fx/x.json"
run compare -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.2 --policies fgd,random --seeds 1-3 --csv $TMP --svg $TMP
head -3 $TMP/allocation.csv
grep -c '<polyline' $TMP/allocation.svg
