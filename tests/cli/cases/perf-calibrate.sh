# gpuplan calibrate on one small real profile (Sia bert on 4 x Quadro RTX
# 6000, 28 rows), and its input errors.
mkdir -p "$TMP/sia/bert" "$TMP/bad/ncf"
cp tests/data/sia/bert/placements-quad.csv "$TMP/sia/bert/"
run calibrate --data "$TMP/sia"
run calibrate --data "$TMP/sia" --write "$TMP/cal.c" >/dev/null
grep -c '"bert", "quad", "RTX6000"' "$TMP/cal.c"
printf 'local_bsz,step_time,sync_time,placement\n4,0.1,0.01,1\n8,0.2,x,2\n' >"$TMP/bad/ncf/placements-rtx.csv"
run calibrate --data "$TMP/bad"
printf 'local_bsz,step_time,placement\n4,0.1,1\n' >"$TMP/bad/ncf/placements-rtx.csv"
run calibrate --data "$TMP/bad"
printf 'local_bsz,step_time,sync_time,placement\n4,0.1,0.01,10\n' >"$TMP/bad/ncf/placements-rtx.csv"
run calibrate --data "$TMP/bad"
run calibrate --data "$TMP/nothing"
run calibrate --frobnicate
