# Tenant axes and the tenant SLO: every mistake is located in the spec
# (FILE:LINE:COL, exit 3), naming the tenants file it checked against.
hide() { sed "s#$ROOT#\$ROOT#g"; }
spec() {
	printf 'cluster: %s/tests/data/sim/small-cluster.yaml\ntrace: %s/tests/data/tenants/split-teams.csv\n%s' \
		"$ROOT" "$ROOT" "$1" >$TMP/s.yaml
	run whatif $TMP/s.yaml 2>&1 | hide
}
T="tenants: $ROOT/tests/data/tenants/split-teams.yaml
"
# a tenant or a quota key the tenants file lacks
spec "${T}axes:
  quota.c: [2, 4]
"
spec "${T}axes:
  quota.aa: [2, 4]
"
spec "${T}axes:
  quota.a.H100-SXM5-80GB: [2, 4]
"
spec "${T}axes:
  weight.z: [1, 2]
"
# no tenants at all
spec "axes:
  quota.a: [2, 4]
"
spec "slo:
  tenant_p90_wait: 1h
"
# per GPU model quotas need the model named
printf 'tenants:\n  - {name: a, quota: {A100-SXM4-40GB: 4}}\n' >$TMP/models.yaml
spec "tenants: $TMP/models.yaml
axes:
  quota.a: [2, 4]
"
# splits that cannot be
spec "${T}axes:
  split: {total: 9, tenants: [a, b], step: 2}
"
spec "${T}axes:
  split: {total: 8, tenants: [a, b], step: 2, min: 6}
"
spec "${T}axes:
  split: {total: 8, tenants: [a, a]}
"
spec "${T}axes:
  split: {total: 8, tenants: [a]}
"
spec "${T}axes:
  split: {total: 100000, tenants: [a, b]}
"
spec "${T}axes:
  split: {total: 8, tenants: [a, b], parts: 2}
"
# two axes set one quota
spec "${T}axes:
  quota.b: [2, 4]
  split: {total: 8, tenants: [a, b]}
"
# values
spec "${T}axes:
  weight.a: [1, 0]
"
spec "${T}axes:
  quota.a: [2, 2]
"
spec "${T}axes:
  quota.a: 4..2
"
# the tenant SLO
spec "${T}slo:
  tenant_p90_wait: {a: 1h, c: 2h}
"
spec "${T}slo:
  tenant_p90_wait: soon
"
spec "${T}slo:
  tenant_p90_wait: 1h
  tenant_p99_wait: 2h
"
spec "${T}slo:
  tenant_p95_wait: 1h
"
# the tenants are what the answer chooses
spec "${T}axes:
  quota.a: [2, 4]
  queue: [fifo, fifo-skip]
scenario: [tenants]
"
# several clusters may each have tenants of their own: the axes need one file
for c in sim/small-cluster whatif/small-3; do
	{ sed "s#\.\./\.\./\.\./#$ROOT/#" "$ROOT/tests/data/$c.yaml"
	  sed -n '/^tenants:/,$p' "$ROOT/tests/data/tenants/split-teams.yaml"; } >"$TMP/$(basename $c).yaml"
done
printf 'cluster: [small-cluster.yaml, small-3.yaml]\ntrace: %s/tests/data/tenants/split-teams.csv\naxes:\n  quota.a: [2, 4]\n' \
	"$ROOT" >$TMP/s.yaml
run whatif $TMP/s.yaml 2>&1 | hide
