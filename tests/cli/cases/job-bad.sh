# Bad job files: located errors, exit 3, nothing on stdout.
for f in tests/data/jobs/bad-*.yaml; do
	run estimate "$f"
done
run estimate tests/data/jobs/no-such-file.yaml
