# topo import --json: K80 box (SOC era, one raw mlx5 NIC) and the PLI H100
# node (empty CPU affinity for GPU0-3, NIC legend).
run topo import --json topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt
run topo import topologies/h100-sxm-8gpu-6nic-empty-cpuaffinity-princeton-pli.txt --json --name pli
