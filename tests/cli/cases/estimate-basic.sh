# estimate: the layer-output CNN rule and the transformer rule, text and JSON.
run estimate tests/data/jobs/good-vgg16.yaml
run estimate tests/data/jobs/good-ps-worker.yaml
run estimate --json tests/data/jobs/good-llama-7b.yaml
run estimate tests/data/jobs/good-minimal.yaml
run estimate
run estimate --bogus x.yaml
# The margin is an option (default 0), shown in the breakdown.
run estimate --memory-margin 10 tests/data/jobs/good-vgg16.yaml
run estimate --memory-margin -5 tests/data/jobs/good-vgg16.yaml
