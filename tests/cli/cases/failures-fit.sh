# failures fit: Weibull with censoring on the real Titan GPU lifetimes, per
# batch; the model file for simulate --failure-model; JSON; errors.
T=tests/data/titan/gc_summary_loc.csv
run failures fit $T -o $TMP/model.yaml --batch old
cat $TMP/model.yaml
run failures fit $T --json | grep -E '"(batch|shape|scale_hours|mtbf_hours|failures|units|lr_p)"'
run failures fit $T --batch nope -o $TMP/x.yaml
test -e $TMP/x.yaml && echo "x.yaml left behind"
run failures fit
run failures fits $T
printf 'time,dead\n100,FALSE\n200,FALSE\n' >$TMP/none.csv
run failures fit $TMP/none.csv -o $TMP/y.yaml 2>&1
printf 'time_s,failed,group\n100,TRUE,a\n-3,FALSE,a\n' >$TMP/bad.csv
run failures fit $TMP/bad.csv 2>&1
