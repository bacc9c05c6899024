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
