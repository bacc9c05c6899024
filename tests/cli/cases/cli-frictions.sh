# Frictions a new user met.
C=tests/data/sim/small-cluster.yaml
T=tests/data/sim/backfill.csv
# --csv takes a folder, never a switch word; a folder so named is ./off.
run simulate -c $C $T --csv off
run compare -c $C $T --csv on
run simulate --envs static -c $C workloads/adobe-sensei-june-1-2-2021.json --csv no
(cd $TMP && "$GPUPLAN" simulate -c $ROOT/$C $ROOT/$T --quiet --csv ./off >/dev/null; echo "[exit $?]"; ls off)
# Without -c, standard error says which cluster is used.
run perf --collective allreduce --size 1MiB --on h100-r4-0 | head -n 2
# The JobSet form: one pinned pod per part, torchrun's rendezvous, and the
# RDMA devices of the NICs the placement uses.
run place -c topologies/example-cluster.yaml workloads/jobs/bert-large-ring.yaml --emit k8s-jobset | sed -n '/^emit k8s-jobset/,$p'
$GPUPLAN place -c topologies/example-cluster.yaml workloads/jobs/resnet50-ps.yaml --emit jobset --json | jq -r '.emit["k8s-jobset"]' | grep -c 'rdma/\|MASTER_ADDR'
# make install puts the example workloads under the data directory, and
# the man page's what-if example runs from there.  install-data, because
# install would rebuild the tree's binary for PREFIX=/usr while other
# checks run it.
make -s -C $ROOT install-data DESTDIR=$TMP/inst PREFIX=/usr >/dev/null 2>&1; echo "[install $?]"
D=$TMP/inst/usr/share/gpuplan
ls $D/workloads | grep -c yaml
(cd $D && GPUPLAN_DATADIR=$D "$GPUPLAN" whatif workloads/whatif-add-h100.yaml --search -j 1 --quiet | tail -n 1)
