# Issue 17 item 12: small frictions a new user hits.
# A GPU model outside the catalog is kept, with a warning (not silently).
run topo import --gpu-model bogus -o $TMP/k80.yaml topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt
grep gpu_model $TMP/k80.yaml
run topo import --gpu-model tesla-k80 -o $TMP/k80.yaml topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt
# Usage texts: topo show lists --models; estimate prints a single %.
run help topo
run help estimate | grep margin
