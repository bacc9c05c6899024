# Every reader refuses a NUL or control byte inside a field at its
# FILE:LINE:COL (exit 3; a NUL used to cut a field silently, a control byte
# to pass into names), and takes a UTF-8 byte order mark at the start of a
# file as editors write it (it used to be refused or misread).  Real files,
# one byte put after the first byte of line L.
poke() { # FILE LINE BYTE(printf) OUT
	off=$(head -n $(($2 - 1)) "$1" | wc -c)
	{ head -c $((off + 1)) "$1"; printf "$3"; tail -c +$((off + 2)) "$1"; } >"$4"
}
bom() { # FILE OUT
	{ printf '\357\273\277'; cat "$1"; } >"$2"
}
# each reader: a NUL, a control byte, a BOM (the BOM case must read as the file does)
check() { # NAME FILE LINE BYTE ARGS... ({} is the file)
	name=$1 f=$2 line=$3 byte=$4
	shift 4
	ext=${f##*/}
	for what in nul ctl bom; do
		out=$TMP/$what-$ext
		case $what in
		nul) poke "$f" "$line" '\000' "$out" ;;
		ctl) poke "$f" "$line" "$byte" "$out" ;;
		bom) bom "$f" "$out" ;;
		esac
		args=
		for a; do
			[ "$a" = "{}" ] && a=$out
			args="$args $a"
		done
		echo "-- $name, $what"
		# shellcheck disable=SC2086
		"$GPUPLAN" $args >$TMP/stdout 2>$TMP/stderr
		echo "[exit $?]"
		grep -v warning "$TMP/stderr" | head -n 2
		[ $what = bom ] && head -n 1 "$TMP/stdout"
	done
}
S=tests/data/slurm
check "trace (gpuplan)" tests/data/traces/gpuplan-example.csv 4 '\001' validate --type trace {}
head -n 40 tests/data/traces/philly.csv >$TMP/philly.csv
check "trace (philly)" $TMP/philly.csv 4 '\033' validate --type trace {}
check "trace (gavel)" tests/data/traces/gavel-msr-23dbec.trace 3 '\177' validate {}
check "sacct -P" tests/data/sacct/rules.P.txt 3 '\014' import sacct {} -o $TMP/t.csv
check "sacct --json" tests/data/sacct/rules.json 4 '\001' import sacct {} -o $TMP/t.csv
check "scontrol show job (history)" tests/data/sacct/scontrol-show-job.txt 2 '\002' import sacct {} -o $TMP/t.csv
check "scontrol show node" $S/scontrol-d-show-node-huji.txt 4 '\001' import slurm {} -o $TMP/c.yaml -q
check "slurm.conf" $S/slurm.conf-huji-phoenix 4 '\037' import slurm {} -o $TMP/c.yaml -q
check "sinfo" $S/sinfo-gres-shard-slurmdoc.txt 2 '\001' import slurm {} -o $TMP/c.yaml -q
check "kubectl json" tests/data/k8s/nodes-gfd-mig.json 5 '\001' import k8s {} -o $TMP/c.yaml -q
check "kubectl yaml" tests/data/k8s/node-device-plugin-112.yaml 4 '\001' import k8s {} -o $TMP/c.yaml -q
check "topology.conf" tests/data/fabric/slurm-man-tree.conf 3 '\001' import slurm $S/scontrol-d-show-node-huji.txt --fabric {} -o $TMP/c.yaml -q
check "ibnetdiscover" tests/data/fabric/ibnetdiscover-rails.txt 6 '\001' import slurm $S/scontrol-d-show-node-huji.txt --fabric {} -o $TMP/c.yaml -q
check "snapshot" topologies/dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt 4 '\001' validate --type snapshot {}
check "cluster" tests/data/cluster/stacked-tors.yaml 4 '\001' validate {}
check "openb nodes" tests/data/openb/openb_node_list_excerpt.csv 3 '\001' validate {}
check "jobs" tests/data/llm/jobs/llama3-8b-fsdp.yaml 2 '\001' validate {}
check "state" tests/data/state/good.yaml 4 '\001' validate -c topologies/example-cluster.yaml {}
check "environments" tests/data/envs/envs.yaml 4 '\001' validate -c tests/data/envs/cluster.yaml {}
check "failures" tests/data/failures/example-cluster.csv 4 '\001' validate -c topologies/example-cluster.yaml {}
