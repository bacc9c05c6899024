# The Alibaba openb pod list replayed with time (trace dialect `openb`):
# the real default list on the real 1,213-node cluster (6,203 GPU pods
# replayed + 1,949 rows left out = 8,152 rows), then the same list on an
# 8-node excerpt where it queues, GPU-model constraints (G2 is an
# undisclosed type; pod 1639 wants 120 cores on a G2 node, which has 96),
# the lists that cannot be replayed, and compare on the excerpt.
D=tests/data/openb
run simulate -c $D/openb_node_list_gpu_node.csv $D/openb_pod_list_default.csv --policy first-fit --json - --quiet
run simulate -c $D/openb_node_list_excerpt.csv $D/openb_pod_list_default.csv --policy bestfit --queue backfill --quiet
run simulate -c $D/openb_node_list_gpu_node.csv $D/openb_pod_list_gpuspec33_excerpt.csv --policy bestfit --csv "$TMP" --quiet
cut -d, -f1,2,5,8,11 "$TMP/jobs.csv"
run simulate -c $D/openb_node_list_gpu_node.csv $D/openb_pod_list_multigpu50_head.csv --json "$TMP/x.json"
run simulate -c $D/openb_node_list_gpu_node.csv tests/data/traces/bad/openb-deleted-before-scheduled.csv
ls "$TMP"
run compare -c $D/openb_node_list_excerpt.csv $D/openb_pod_list_default.csv --policies first-fit --queues fifo,backfill --seeds 1
