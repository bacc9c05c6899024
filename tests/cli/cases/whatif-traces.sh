# Several traces are workloads the configuration must serve, not
# alternatives: the answer is the cheapest count meeting the SLO on every
# trace (Pollux workload-6 never queues; the Philly slice decides).
run whatif tests/data/whatif/traces.yaml -j 2 --search | tail -3
run whatif tests/data/whatif/traces.yaml -j 2 --search --json | grep -A3 '"best"'
