# Small frictions a new user hits.
# A GPU model outside the catalog is kept, with a warning (not silently).
run topo import --gpu-model bogus -o $TMP/k80.yaml topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt
grep gpu_model $TMP/k80.yaml
run topo import --gpu-model tesla-k80 -o $TMP/k80.yaml topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt
# Usage texts: topo show lists --models; estimate prints a single %.
run help topo
run help estimate | grep margin
# place's default policy is bestfit, with no fallback to name
run help place | grep -A1 -- '^  --policy NAME'
# compare inflate's help names the files it writes (fragmentation_ratio.csv,
# and the two charts only)
run help compare inflate | grep -A2 -- '^  --csv DIR\|^  --svg DIR'
# Item 8: output folders are made with their parents before the run starts;
# a file in the way fails before any work (exit 4), leaving nothing behind.
C=tests/data/sim/small-cluster.yaml
D=tests/data/openb
run simulate -c $C tests/data/sim/backfill.csv --csv "$TMP/s/a/b" --json "$TMP/s/j/out.json" >/dev/null
ls "$TMP/s/a/b" "$TMP/s/j"
run compare -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.2 --policies fgd --seeds 1 --csv "$TMP/c/x/y" >/dev/null
ls "$TMP/c/x/y"
touch "$TMP/f"
run compare -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.2 --policies fgd --seeds 1 --csv "$TMP/f/sub"
run simulate -c $C tests/data/sim/backfill.csv --svg "$TMP/f/sub"
# Item 11: a class without completed jobs reports null, not a delay of 0.
grep -v ',LS$' tests/data/sim/backfill.csv >"$TMP/be-only.csv"
run simulate -c $C "$TMP/be-only.csv" --quiet --json - | grep -A21 '"LS"' | grep -E '"(mean|max|total)"'
# A job list given to place (not --batch) says what it is and what reads it.
run place workloads/jobs/batch-mixed.yaml
# More GPU nodes than a cluster holds: an input error before anything is written.
printf 'NodeName=n[0-100000] CPUs=64 Gres=gpu:a100:8\n' >"$TMP/big.conf"
run import slurm "$TMP/big.conf" -o "$TMP/big.yaml" --quiet
ls "$TMP/big.yaml" 2>/dev/null
# compare inflate's last table keeps its columns with every policy's name
run compare inflate -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.2 --seeds 1 | tail -7
