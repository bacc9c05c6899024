# Every real Slurm sample (tests/data/slurm, origins in SOURCES.md): what
# `import slurm` makes of it alone -- the nodes and the state.
S=tests/data/slurm
for f in scontrol-show-node-dccn.txt scontrol-o-show-node-alces.txt \
	 scontrol-d-show-node-huji.txt slurm.conf-huji-phoenix \
	 slurm.conf-slurm-test7.17.1 gres.conf-slurm-man-examples \
	 sinfo-gres-shard-slurmdoc.txt; do
	echo "== $f"
	run import slurm $S/$f -o $TMP/c.yaml --state-out $TMP/s.yaml
	sed -n '/^nodes:/,$p' $TMP/c.yaml
	grep -v '^#' $TMP/s.yaml
done
echo "== alone, these make no cluster"
for f in scontrol-show-job-d-huji.txt gres.conf-slurm-test7.17.1 sinfo-gresused-labshare.txt; do
	run import slurm $S/$f -o $TMP/none.yaml
done
ls $TMP
