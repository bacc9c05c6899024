# The complete example of the man page's "Cluster YAML" section loads and
# has the weights the page states (a100-0/a100-3 1, a100-0/big 2,
# l40s-0/l40s-1 100, spare -1).
sed -n '/^name: lab$/,/^\.Ed$/p' man/gpuplan.1 | grep -v '^\.Ed$' >"$TMP/lab.yaml"
cp topologies/a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt "$TMP/"
run validate "$TMP/lab.yaml"
run topo show -c "$TMP/lab.yaml" | sed -n '/^inter-node/,$p'
