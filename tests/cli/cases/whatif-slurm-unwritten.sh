# whatif --slurm DIR whose script cannot be written (here a file size
# limit of 0 fails the write with EFBIG): no empty folder is left, the
# folders the run made are removed again (DIR, and a missing parent).
(trap '' XFSZ; ulimit -f 0; run whatif workloads/whatif-add-h100.yaml --slurm $TMP/sl --slices 4)
(trap '' XFSZ; ulimit -f 0; run whatif workloads/whatif-add-h100.yaml --slurm $TMP/new/sl --slices 4)
ls $TMP
# a folder that existed stays, without a partial script
mkdir $TMP/old
(trap '' XFSZ; ulimit -f 0; run whatif workloads/whatif-add-h100.yaml --slurm $TMP/old --slices 4)
ls -A $TMP/old
