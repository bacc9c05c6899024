# predict: train / eval on the shipped time data (small network, few
# epochs), a GPUMemNet file with a depth split, the bundled models on a
# job file, and the usage and input errors.
run predict train tests/data/predict/time.csv --target time --hidden 8 --epochs 20 -o $TMP/t.json
run predict eval $TMP/t.json tests/data/predict/time.csv --json
run predict train tests/data/predict/gpumemnet-3.csv --target util --split depth --holdout 0.34 --hidden 4 --epochs 5 -o $TMP/u.json
run predict train tests/data/predict/time.csv --target time --hidden 8 --epochs 10 --split gpu:K80,T4 -o $TMP/t2.json
run predict workloads/jobs/resnet50-ps.yaml
run predict --json tests/data/jobs/good-vgg16.yaml
run predict train tests/data/predict/time.csv -o $TMP/x.json
run predict train tests/data/predict/time.csv --target util -o $TMP/x.json
run predict train tests/data/predict/time.csv --target time --split gpu:H100 -o $TMP/x.json
run predict eval $TMP/t.json tests/data/predict/gpumemnet-3.csv
run predict tests/data/jobs/good-minimal.yaml
run predict train tests/data/predict/time.csv --target time --split sideways -o $TMP/x.json
