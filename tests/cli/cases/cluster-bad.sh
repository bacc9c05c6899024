# Malformed cluster files (tests/data/cluster-bad/, plus generated ones):
# each gives one located error line and exit 3.
for f in tests/data/cluster-bad/*.yaml; do
	run validate "$f"
done
# 3,000-deep nesting
awk 'BEGIN { s = "nodes: "; for (i = 0; i < 3000; i++) s = s "["; for (i = 0; i < 3000; i++) s = s "]"; print s }' >"$TMP/deep.yaml"
run validate "$TMP/deep.yaml"
# a 10 MB single line
head -c 10485760 /dev/zero | tr '\0' x >"$TMP/long.yaml"
run validate "$TMP/long.yaml"
# binary junk, and a file over the 16 MiB cap
printf '\177ELF\002\001\001\000\000\000\000' >"$TMP/junk.bin"
run validate "$TMP/junk.bin"
head -c 17000000 /dev/zero | tr '\0' '#' >"$TMP/huge.yaml"
run validate "$TMP/huge.yaml"
run validate tests/data/cluster-bad/no-such-file.yaml
