# A job's gpu_model admits the family it names: "V100" every V100 card,
# not the V100S (before, "V100" matched no node, only V100-SXM2-16GB by
# an exact compare).
K=$ROOT/topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt
printf 'node_types:\n  v: {topology: %s, gpu_model: V100-PCIE-32GB}\n  s: {topology: %s, gpu_model: V100S-PCIE-32GB}\nnodes:\n  - {name: v0, type: v}\n  - {name: s0, type: s}\n' "$K" "$K" >$TMP/c.yaml
for m in V100 'Tesla V100' V100-32GB V100S V100M32; do
	printf 'name: j\ngpus: 4\ntype: single-node\ngpu_memory_gib: 8\ngpu_model: %s\n' "$m" >$TMP/j.yaml
	echo "gpu_model $m:"
	run place -c $TMP/c.yaml $TMP/j.yaml | grep -E '^status|^  [a-z]|exit'
done
