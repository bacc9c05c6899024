# place: text output, placed and waiting, on the bundled example cluster.
C=topologies/example-cluster.yaml
run place -c $C workloads/jobs/bert-large-ring.yaml
run place -c $C workloads/jobs/llama2-7b-node.yaml
run place -c $C --state tests/data/state/good.yaml workloads/jobs/notebook-share.yaml
run place -c $C tests/data/jobs/good-huge.yaml
run place -c $C --policy first-fit workloads/jobs/resnet50-ps.yaml
# PS-Worker split on one node (roles, rails), and nic-affinity's class with
# a network bottleneck (NET:<tech>:<switch levels>) from the perf model.
run place -c $C workloads/jobs/resnet50-ps.yaml
run place -c $C --policy nic-affinity --json workloads/jobs/bert-large-ring.yaml | grep -E '"(bottleneck|bottleneck_detail|ring_bw_gbs|switch_levels|class|subnet|vf)"' | sort | uniq -c
