# topo import of the two real snapshots cut off after a complete row: a
# partial view (only devices with a row), a located warning on stderr, the
# 'truncated' quirk, exit 0.
run topo import topologies/dgx2-v100-16gpu-nv6-10nic-nccl-tests-78-TRUNCATED.txt --name dgx2 --gpu-model V100-SXM2-32GB
run topo import topologies/h100-hgx-8gpu-9nic-rail-plus-frontend-nccl-1453-TRUNCATED.txt -o "$TMP/h100.yaml" --name h100
grep -v '^  - {id: GPU' "$TMP/h100.yaml"
run validate topologies/h100-hgx-8gpu-9nic-rail-plus-frontend-nccl-1453-TRUNCATED.txt
