# topo import: YAML node type from the DGX-1 snapshot (old driver, raw
# mlx5_N headers in unsorted order, no NUMA column).
run topo import topologies/dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt --name dgx1 --gpu-model V100-SXM2-32GB
