#!/bin/sh
# The large-model model against published measurements
# (tests/data/llm/validation.csv, sources in tests/data/llm/SOURCES.md):
# every case's modelled value and error, then the median absolute error
# per class, for the cases the fitted constants may see (split "fit") and
# for the held-out ones apart.  Throughput cases run `gpuplan perf` on the
# validation cluster, memory cases `gpuplan estimate`.  Prints numbers;
# exits 0 unless a case cannot be run.
# Usage: validate-llm.sh [GPUPLAN] [--fit]
#   --fit  also search the GEMM efficiency of each GPU generation and
#          precision that minimises the median error of its "fit" cases
#          (the values to put in src/perf/llm.c).
set -e
cd "$(dirname "$0")/.."
GPUPLAN=./gpuplan
FIT=
for a in "$@"; do
	case $a in
	--fit) FIT=1 ;;
	*) GPUPLAN=$a ;;
	esac
done
DIR=tests/data/llm
CLUSTER=$DIR/validation-cluster.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# GPUs 8 x k of nodes PREFIX0-0.. in leaves of 32 nodes.
on_spec() {
	awk -v p="$1" -v n="$2" 'BEGIN {
		k = int((n + 7) / 8); s = ""
		for (leaf = 0; k > 0; leaf++) {
			m = k > 32 ? 32 : k
			s = s (s == "" ? "" : ",") p leaf "-[0-" (m - 1) "]"
			k -= m
		}
		if (n < 8) s = s ":0-" (n - 1)
		print s }'
}

json_num() {
	awk -v k="\"$1\":" 'index($0, k) { sub(/.*": */, ""); sub(/,$/, ""); print; exit }'
}

# job YAML of one CSV row on stdout
job_yaml() {
	echo "$1" | awk -F, '{
		printf "name: %s\ntype: llm\n", $1
		if ($6 ~ /^gpt:/) {
			split($6, g, ":")
			printf "model: {layers: %s, hidden: %s, heads: %s, vocab: 51200, seq_len: %s, ", g[2], g[3], g[4], $7
			printf "mlp: gelu, tied: true, bias: true, dropout: true, flash_attention: false}\n"
		} else {
			printf "model: {preset: %s, seq_len: %s}\n", $6, $7
		}
		printf "precision: %s\n", $19
		printf "parallel: {tp: %s, pp: %s, vp: %s, cp: %s, dp: %s, ep: %s, sp: %s}\n", $8, $9, $10, $11, $12, $13, ($16 == 1 ? "true" : "false")
		printf "sharding: %s\nrecompute: %s\nglobal_batch: %s\nmicro_batch: %s\ngpus: %s\n", $14, $15, $17, $18, $5
	}'
}

# modelled value of a row (with GEMM efficiency $2 when given)
model_value() {
	row=$1
	id=$(echo "$row" | cut -d, -f1)
	job_yaml "$row" >"$tmp/$id.yaml"
	metric=$(echo "$row" | cut -d, -f20)
	case $metric in
	mem)
		"$GPUPLAN" estimate --json "$tmp/$id.yaml" | json_num memory_gib_per_gpu ;;
	states_act)
		"$GPUPLAN" estimate --json "$tmp/$id.yaml" | awk '
			/"(weights|gradients|optimizer|activations|embedding_logits|fsdp_units)":/ {
				v = $2; sub(/,$/, "", v); s += v }
			END { printf "%.6g\n", s }' ;;
	*)
		gpu=$(echo "$row" | cut -d, -f4)
		n=$(echo "$row" | cut -d, -f5)
		case $gpu in
		h100) pre=h ;;
		h100gt) pre=g ;;
		*) pre=a ;;
		esac
		out=$("$GPUPLAN" perf -c "$CLUSTER" "$tmp/$id.yaml" --on "$(on_spec $pre "$n")" \
			${2:+--gemm-efficiency "$2"} --json)
		if [ "$metric" = tps ]; then
			echo "$out" | json_num tokens_per_s_per_gpu
		else
			echo "$out" | json_num iteration_s
		fi ;;
	esac
}

# measured value in the unit model_value gives
measured() {
	echo "$1" | awk -F, '{
		if ($20 != "sc21") { print $21; exit }
		split($6, g, ":"); L = g[2]; h = g[3]; s = $7; B = $17; V = 51200
		F = 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h))
		printf "%.6g\n", F / ($21 * 1e12 * $5) }'
}

rows=$(grep -v '^#' "$DIR/validation.csv")

if [ -n "$FIT" ]; then
	for grp in "a100 bf16|fp16" "h100.* bf16" "h100.* fp8"; do
		gpu=${grp%% *}
		prec=${grp#* }
		sel=$(echo "$rows" | awk -F, -v g="^$gpu\$" -v p="^($prec)\$" \
			'$3 == "fit" && $4 ~ g && $19 ~ p && $20 != "mem" && $20 != "states_act"')
		[ -n "$sel" ] || continue
		best=
		for e in 0.28 0.32 0.36 0.40 0.44 0.48 0.52 0.56 0.60 0.64 0.68 0.72 0.76 0.80; do
			errs=$(echo "$sel" | while IFS= read -r row; do
				m=$(model_value "$row" "$e")
				x=$(measured "$row")
				metric=$(echo "$row" | cut -d, -f20)
				awk -v m="$m" -v x="$x" -v k="$metric" 'BEGIN {
					e = (m - x) / x; if (k != "tps") e = -e; print (e < 0 ? -e : e) }'
			done | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
			echo "fit $gpu $prec: efficiency $e -> median error $(awk -v x="$errs" 'BEGIN { printf "%.1f %%", 100 * x }')"
			best=$(printf '%s\n%s %s\n' "$best" "$errs" "$e" | awk 'NF' | sort -g | head -1)
		done
		echo "fit $gpu $prec: best efficiency ${best#* } (median error $(awk -v x="${best%% *}" 'BEGIN { printf "%.1f %%", 100 * x }'))"
	done
fi

printf '%-26s %-10s %-5s %-6s %12s %12s %8s\n' case class split metric measured model error
echo "$rows" | while IFS= read -r row; do
	id=$(echo "$row" | cut -d, -f1)
	cls=$(echo "$row" | cut -d, -f2)
	split=$(echo "$row" | cut -d, -f3)
	metric=$(echo "$row" | cut -d, -f20)
	m=$(model_value "$row")
	x=$(measured "$row")
	awk -v id="$id" -v c="$cls" -v s="$split" -v k="$metric" -v m="$m" -v x="$x" 'BEGIN {
		# error of the throughput: a time too long is throughput too low
		e = (m - x) / x; if (k == "sc21" || k == "iter") e = (x - m) / m
		printf "%-26s %-10s %-5s %-6s %12.4g %12.4g %7.1f%%\n", id, c, s, (k == "sc21" ? "iter" : k), x, m, 100 * e }'
done >"$tmp/report"
cat "$tmp/report"
awk '
	function med(list,   n, a, i, j, t) {
		n = split(list, a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n == 0 ? -1 : (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
	}
	{
		e = $7; sub(/%/, "", e); if (e < 0) e = -e
		key = $2 " " $3; L[key] = L[key] " " e; N[key]++
		kind = ($2 ~ /^memory/ ? $2 : "throughput")
		T[kind " " $3] = T[kind " " $3] " " e; TN[kind " " $3]++
		T[kind " all"] = T[kind " all"] " " e; TN[kind " all"]++
		classes[$2] = 1
	}
	END {
		printf "\nmedian absolute error per class (cases):\n"
		printf "  %-14s %16s %16s\n", "class", "fit", "held out"
		for (c in classes) {
			f = (c " fit") in N ? sprintf("%5.1f %% (%d)", med(L[c " fit"]), N[c " fit"]) : "-"
			h = (c " held") in N ? sprintf("%5.1f %% (%d)", med(L[c " held"]), N[c " held"]) : "-"
			printf "  %-14s %16s %16s\n", c, f, h | "sort"
		}
		close("sort")
		printf "\n"
		split("throughput memory memory-reserved", kinds, " ")
		for (i = 1; i <= 3; i++) {
			k = kinds[i]
			printf "%s: median %.1f %% over %d (fit %.1f %% over %d, held out %.1f %% over %d); target %s\n",
				k, med(T[k " all"]), TN[k " all"], med(T[k " fit"]), TN[k " fit"],
				med(T[k " held"]), TN[k " held"], (k == "throughput" ? "<= 15 %" : "<= 10 %")
		}
	}' "$tmp/report"
