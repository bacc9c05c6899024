# The command frame: version, help, usage errors and their exit codes.
run --version
run frobnicate
run help nosuchcommand
run help place >/dev/null
run topo
run topo bogus
