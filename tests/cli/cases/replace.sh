# replace: worker replacement for an operator on the example cluster.  A whole H100
# node of a 16-GPU BERT ring fails: the A100 nodes would slow it down, the
# one idle H100 node keeps its iteration time.  One GPU of it fails.  A
# two-node PCIe pair: the free GPU on the survivor's node is faster than
# any other PCIe node (SYS inside the node beats 25 GbE).  A single-card
# notebook has no survivor: none.  --commit updates the state.  Two
# --failed in one call are refused (exit 2): one decision per call.
S=tests/data/replace/state.yaml
D=tests/data/replace
run replace --state $S --failed h100-r4-1 $D/job-bert.yaml | grep -v -E '^  a100-r[0-3]-[1-7] '
run replace --state $S --failed h100-r4-1:2 --json $D/job-bert.yaml | grep -E '^  "(status|iteration_s_before|iteration_s_after|copy_s|copy_from|reason)"|"node": "h100'
run replace --state $S --failed pcie-r6-1 $D/job-pair.yaml
run replace --state $S --failed a100-r3-7 $D/job-nb.yaml
run replace --state $S --failed h100-r4-1 --iteration-s 0.05 --json $D/job-bert.yaml | grep -E '"(status|reason|iteration_s_before)"'
cp $S $TMP/s.yaml
run replace --state $TMP/s.yaml --failed pcie-r6-1 --commit $D/job-pair.yaml >/dev/null
grep -E 'pair|down' $TMP/s.yaml
run replace --state $S --failed nowhere $D/job-bert.yaml
run replace --state $S --failed h100-r4-1:9 $D/job-bert.yaml
run replace --state $S --failed h100-r5-3 $D/job-bert.yaml
run replace --state $S $D/job-bert.yaml
run replace --state $S --failed h100-r4-1 --failed h100-r5-3 $D/job-bert.yaml
run replace --state $S --failed pcie-r6-1 $D/job-nb.yaml
