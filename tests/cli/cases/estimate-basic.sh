# estimate: the seed CNN rule and the transformer rule, text and JSON.
run estimate tests/data/jobs/good-vgg16.yaml
run estimate tests/data/jobs/good-ps-worker.yaml
run estimate --json tests/data/jobs/good-llama-7b.yaml
run estimate tests/data/jobs/good-minimal.yaml
run estimate
run estimate --bogus x.yaml
