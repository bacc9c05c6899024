# Shell completion generated from the command table.
"$GPUPLAN" completion bash >"$TMP/c.bash"
bash -n "$TMP/c.bash" && echo "bash syntax ok"
comp() { bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpuplan; echo "${COMPREPLY[*]}"' x "$TMP/c.bash" "$@"; }
comp gpuplan to
comp gpuplan topo ""
comp gpuplan estimate --mem
comp gpuplan simulate --cs
comp gpuplan help si
# the options of the command's description: not words of its prose
# ("--fabric" in validate's help of --type, "--json" in import's)
comp gpuplan validate -
comp gpuplan import --
"$GPUPLAN" completion zsh >"$TMP/c.zsh"
head -2 "$TMP/c.zsh"
grep -c "^	[a-z]*) subs=" "$TMP/c.zsh"
run completion fish
