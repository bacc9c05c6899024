# topo import rejects malformed snapshots (tests/data/topo-bad/SOURCES.md):
# one located error line, exit 3, and no output file.
for f in tests/data/topo-bad/*.txt tests/data/topo-bad/*.bin; do
	run topo import "$f" -o "$TMP/out.yaml"
done
# The real truncated snapshots import as partial views, except with --strict.
for f in topologies/*-TRUNCATED.txt; do
	run topo import --strict "$f" -o "$TMP/out.yaml"
done
# A 10 MB single line, made here rather than stored.
head -c 10485760 /dev/zero | tr '\0' A >"$TMP/long.txt"
run topo import "$TMP/long.txt" -o "$TMP/out.yaml"
rm -f "$TMP/long.txt"
ls "$TMP"
echo "(no output file)"
