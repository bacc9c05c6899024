# --slurm writes an sbatch job-array script: task I runs slice I/N into
# DIR/part-I.sqlite (absolute paths; shown here with $ROOT and $GPUPLAN).
run whatif workloads/whatif-add-h100.yaml --slurm $TMP/sl --slices 4 --sbatch-option=--time=0:30:00 |
	sed "s#$GPUPLAN#\$GPUPLAN#g; s#$ROOT#\$ROOT#g"
sed "s#$GPUPLAN#\$GPUPLAN#g; s#$ROOT#\$ROOT#g" $TMP/sl/whatif.sbatch
# A task runs its slice as Slurm would start it.
SLURM_ARRAY_TASK_ID=2 sh $TMP/sl/whatif.sbatch
ls $TMP/sl
