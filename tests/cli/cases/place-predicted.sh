# place --policy predicted-share: the job's share and memory from the
# bundled predictors (decision path), a job without a model (request
# kept), and a batch.
run place --policy predicted-share workloads/jobs/resnet50-ps.yaml
run place --policy predicted-share --json tests/data/jobs/good-vgg16.yaml
run place --policy predicted-share workloads/jobs/bert-large-ring.yaml
run place --policy predicted-share --batch workloads/jobs/batch-mixed.yaml
