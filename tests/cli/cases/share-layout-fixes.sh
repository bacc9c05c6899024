# Bugs fixed by the one-SVG-writer / one-seed-list change:
# a pod list whose name holds XML specials still gives a well-formed SVG
# (the name was written raw: '&' and '<' made allocation.svg invalid),
# and --inflate takes the same seed lists as compare ('1,5,9' was refused).
D=tests/data/openb
cp $D/tiny_pods.csv "$TMP/a&b<c>.csv"
run compare -c $D/tiny_nodes.csv "$TMP/a&b<c>.csv" --inflate 1.2 --policies fgd,fgd-bestfit --seeds 1,5,9 --svg $TMP | head -1
grep -c 'a&amp;b&lt;c&gt;.csv' $TMP/allocation.svg
grep -c 'a&b<c>' $TMP/allocation.svg
grep -c '<polygon' $TMP/allocation.svg
run compare -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.2 --seeds 1,x
