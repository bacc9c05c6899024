# Synthetic clusters and traces for the simulator benchmarks (sourced by
# scripts/bench-sim.sh, bench-scale.sh, bench-failures.sh and bench-preempt.sh, from
# the repository root).

# synth_cluster NODES FILE: NODES DGX-1 boxes (8 V100 each) under 64 leaf
# switches of one InfiniBand HDR spine.
synth_cluster() {
	awk -v n="$1" -v topo="$PWD/topologies/dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt" 'BEGIN {
		print "# " n " x 8 GPUs for the simulator benchmarks"
		print "name: bench-" n
		print "node_types:"
		print "  box:"
		print "    topology: " topo
		print "    gpu_model: V100-SXM2-16GB"
		print "    cpus: 80"
		print "    memory_gib: 512"
		print "fabric:"
		print "  - {name: spine, tech: ib-hdr}"
		for (i = 0; i < 64; i++) print "  - {name: leaf" i ", parent: spine}"
		print "nodes:"
		for (i = 0; i < 64; i++) {
			c = int(n / 64) + (i < n % 64 ? 1 : 0)
			if (c) print "  - {name: r" i "-, type: box, switch: leaf" i ", count: " c "}"
		}
	}' >"$2"
}

# synth_trace JOBS GAP FILE: JOBS jobs from a seeded Park-Miller generator,
# exponential gaps of mean GAP seconds, 70 % one GPU, 10 % two, 8 % four,
# 8 % eight, 3 % sixteen, 1 % 32, exponential run times of mean 1 h.  A
# job asks 2.66 GPUs x 3,600 s on average: GAP = 9576 / (load x GPUs).
synth_trace() {
	awk -v n="$1" -v gap="$2" 'BEGIN {
		x = 20260421; m = 2147483647
		print "id,submit,gpus,duration"
		t = 0
		for (i = 1; i <= n; i++) {
			x = (16807 * x) % m; u = x / m
			t += -log(1 - u) * gap
			x = (16807 * x) % m; u = x / m
			g = u < 0.70 ? 1 : u < 0.80 ? 2 : u < 0.88 ? 4 : u < 0.96 ? 8 : u < 0.99 ? 16 : 32
			x = (16807 * x) % m; u = x / m
			d = int(-log(1 - u) * 3600) + 1
			printf "s%d,%.3f,%d,%d\n", i, t, g, d
		}
	}' >"$3"
}
