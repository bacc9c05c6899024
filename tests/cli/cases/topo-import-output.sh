# topo import -o writes the file atomically; a bad snapshot leaves none.
run topo import topologies/gh200-4gpu-hpe-cray-ex-nv6.txt -o "$TMP/gh200.yaml" --gpu-model GH200
cat "$TMP/gh200.yaml"
run topo import tests/data/topo-bad/gap-dgx2.txt -o "$TMP/dgx2.yaml"
run topo import --strict topologies/dgx2-v100-16gpu-nv6-10nic-nccl-tests-78-TRUNCATED.txt -o "$TMP/dgx2.yaml"
ls "$TMP"
run topo import
run topo import a b
run topo import --frob x
run topo import /nonexistent/snapshot.txt
# NIC device names are the snapshot's text: one that is not plain YAML (here
# a Latin-1 byte, the word 'null') is quoted, so the node type loads.
sed -e 's/NIC0: mlx5_0/NIC0: ml\xabx5_0/' -e 's/NIC1: mlx5_1/NIC1: null/' \
	topologies/a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt >"$TMP/nic-names.txt"
run topo import "$TMP/nic-names.txt" -o "$TMP/nic-names.yaml"
grep 'device:' "$TMP/nic-names.yaml"
run validate --type node-type "$TMP/nic-names.yaml"
