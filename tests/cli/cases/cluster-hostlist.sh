# Node names in a cluster YAML may be Slurm hostlists; topo show prints node
# sets as hostlists; a bad hostlist is an error at its column.
cat >$TMP/c.yaml <<'YAML'
node_types:
  t:
    gpus: [{id: GPU0}]
    links: [[X]]
nodes:
  - {name: "gpu-[001-003,010]", type: t}
  - {name: login, type: t}
YAML
run validate $TMP/c.yaml
run topo show -c $TMP/c.yaml | grep nodes
sed 's/001-003/003-001/' $TMP/c.yaml >$TMP/bad.yaml
run validate $TMP/bad.yaml
sed 's/type: t}/type: t, count: 2}/' $TMP/c.yaml >$TMP/both.yaml
run validate $TMP/both.yaml
