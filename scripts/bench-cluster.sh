#!/bin/sh
# Cluster loading at scale: a 3-level fat tree of 100,000 nodes (the node
# cap) built from the bundled A100 snapshot, loaded by `validate` and
# summarised by `topo show` (grouped weight matrix).  Numbers only.
set -e
cd "$(dirname "$0")/.."
[ -x ./gpuplan ] || make -s gpuplan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp topologies/a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt "$tmp/a100.txt"
awk 'BEGIN {
	print "node_types:\n  t: {topology: a100.txt, gpu_model: A100-SXM4-40GB}"
	print "fabric:\n  - {name: core, tech: ib-ndr}"
	for (s = 0; s < 20; s++) {
		printf "  - {name: sp%d, parent: core}\n", s
		for (l = 0; l < 50; l++)
			printf "  - {name: lf%d-%d, parent: sp%d}\n", s, l, s
	}
	print "nodes:"
	for (s = 0; s < 20; s++)
		for (l = 0; l < 50; l++)
			printf "  - {name: n%d-%d, type: t, switch: lf%d-%d, count: 100}\n", s, l, s, l
}' >"$tmp/big.yaml"
t() {
	start=$(date +%s.%N)
	"$@" >/dev/null
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}
echo "validate, 100000 nodes / 1000 leaves:   $(t ./gpuplan validate "$tmp/big.yaml") s"
echo "topo show, 100000 nodes / 1000 leaves:  $(t ./gpuplan topo show -c "$tmp/big.yaml") s"
echo "topo show --json (1000x1000 weights):   $(t ./gpuplan topo show --json -c "$tmp/big.yaml") s"
