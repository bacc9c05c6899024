# -c accepts an Alibaba openb node list (FGD's cluster format) as well as YAML.
run validate tests/data/openb/openb_node_list_gpu_node.csv
run validate tests/data/openb/bad_nodes.csv
run topo show -c tests/data/openb/tiny_nodes.csv
