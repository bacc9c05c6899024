#!/bin/sh
# A full file system under an output set (simulate --csv, --svg, --json
# into one small tmpfs): the run fails with exit 4 and says the file
# system is full, and no file of the set is replaced (the old ones stay,
# byte for byte), whichever file the space runs out in.  Needs to mount a
# tmpfs (root); skipped where that is not allowed.
#   output-enospc.sh GPUPLAN    (run from the repository root)
set -u
G=${1:?usage: output-enospc.sh GPUPLAN}
tmp=$(mktemp -d)
m=$tmp/small
mkdir "$m"
if ! mount -t tmpfs -o size=212k tmpfs "$m" 2>/dev/null; then
	echo "output-enospc: cannot mount a tmpfs here (not root?): skipped"
	rm -rf "$tmp"
	exit 0
fi
trap 'umount "$m"; rm -rf "$tmp"' EXIT
C=tests/data/sim/small-cluster.yaml
# a trace whose outputs together pass 212 KiB while the first two fit
awk 'BEGIN { print "id,submit,gpus,duration"; for (i = 0; i < 3000; i++) printf "j%d,%d,1,%d\n", i, i * 7, 60 + i % 300 }' >"$tmp/t.csv"
# a new CSV folder and an old summary: the set (about 220 KiB) does not
# fit, its third file (timeline.csv) runs out of room
echo '{"old": true}' >"$m/summary.json"
cp -R "$m" "$tmp/before"
"$G" simulate -c "$C" "$tmp/t.csv" --csv "$m/out" --json "$m/summary.json" >/dev/null 2>"$tmp/err"
rc=$?
fail=0
[ "$rc" -eq 4 ] || { echo "output-enospc: exit $rc, want 4"; fail=1; }
grep -q "file system is full" "$tmp/err" || { echo "output-enospc: message: $(cat "$tmp/err")"; fail=1; }
# the old file as it was, no new one (the folder the run made is gone)
diff -r "$tmp/before" "$m" >/dev/null || { echo "output-enospc: the outputs changed:"; diff -r "$tmp/before" "$m" | head -5; fail=1; }
[ "$fail" -eq 0 ] && echo "output-enospc: a full file system replaced no output (exit 4, said so)"
exit "$fail"
