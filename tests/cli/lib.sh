# Sourced by every golden CLI case.  $GPUPLAN is the binary under test,
# $ROOT the source tree, $TMP a scratch directory removed afterwards.
cd "$ROOT" || exit 1
# Print a command's output and exit status, so the golden file pins both.
run() {
	"$GPUPLAN" "$@"
	echo "[exit $?]"
}
