# Bandwidth keys name their unit (gbit_s = Gb/s, gbyte_s
# = GB/s) next to the old names, which stay as aliases with the same value.
K=$ROOT/topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt
"$GPUPLAN" topo show --json | jq -c '[.fabric[0] | {gbps, gbit_s}]'
"$GPUPLAN" topo show --json --node a100-r0-0 | jq -c '.node | {nic_gbps, nic_gbit_s}'
"$GPUPLAN" topo show --models --json | jq -c '.[] | select(.name == "H100-SXM5-80GB") | {mem_bw_gbs, mem_bw_gbyte_s, nvlink_gbs_per_link, nvlink_gbyte_s_per_link, nvlink_nccl_gbs, nvlink_nccl_gbyte_s}'
"$GPUPLAN" place --json workloads/jobs/bert-large-ring.yaml | jq -c '{ring_bw_gbs, ring_bw_gbyte_s}'
# A cluster file takes either name (not both).  The snapshot sits next to
# the file so that the error's column does not depend on $ROOT's length.
cp "$K" $TMP/k80.txt
K=k80.txt
printf 'gpu_models:\n  my: {base: V100-PCIE-16GB, mem_bw_gbyte_s: 1000, nvlink_nccl_gbyte_s: 0}\nnode_types:\n  t: {topology: %s, gpu_model: my, nic_gbit_s: 50}\nnodes:\n  - {name: a, type: t}\n' "$K" >$TMP/c.yaml
run validate $TMP/c.yaml
"$GPUPLAN" topo show -c $TMP/c.yaml --models --json | jq -c '.[] | select(.name == "my") | {mem_bw_gbs, mem_bw_gbyte_s}'
sed 's/nic_gbit_s: 50/nic_gbit_s: 50, nic_gbps: 50/' $TMP/c.yaml >$TMP/both.yaml
run validate $TMP/both.yaml
