# Kubernetes samples (tests/data/k8s, origins in SOURCES.md): nodes as JSON
# (GPU Feature Discovery labels, MIG, time-slicing, cordoned) and as YAML,
# pods with GPUs (running, finished, unbound).
K=tests/data/k8s
run import k8s $K/nodes-gfd-mig.json $K/node-device-plugin-112.yaml $K/pods-gpu.json \
	-o $TMP/k.yaml --state-out $TMP/ks.yaml
cat $TMP/k.yaml $TMP/ks.yaml
run topo show -c $TMP/k.yaml --node xe9680-h100-0 --json | head -12
