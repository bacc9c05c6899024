# --memory-margin for place and simulate (no margin by
# default: the source document's formula), and a user's layer list under the source document's
# per-layer output rule.
printf 'node_types:\n  v100: {topology: %s/topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt, gpu_model: V100-PCIE-16GB}\nnodes:\n  - {name: a, type: v100}\n' "$ROOT" >$TMP/c.yaml
# ResNet-50, batch 360, fp32 SGD: 15738 MiB fits a 16 GiB (16384 MiB) V100;
# with a 10 % margin (16.91 GiB) it fits no GPU of the cluster.
printf 'name: r50\ngpus: 1\nmodel: resnet50\ndataset: imagenet\nbatch_size: 360\noptimizer: sgd\nprecision: fp32\n' >$TMP/r50.yaml
run place -c $TMP/c.yaml $TMP/r50.yaml | sed -n '1p;3p'
run place -c $TMP/c.yaml --memory-margin 10 $TMP/r50.yaml | sed -n '1p;3p'
"$GPUPLAN" place -c $TMP/c.yaml --memory-margin 10 --json $TMP/r50.yaml | grep -E '"(gpu_memory_mib|gpu_memory_estimated|memory_margin_percent|status)"'
printf 'name: given\ngpus: 1\ngpu_memory_gib: 15.9\n' >$TMP/given.yaml
run place -c $TMP/c.yaml --memory-margin 10 $TMP/given.yaml | sed -n '1p;3p'
printf 'jobs:\n  - {name: a, gpus: 1, model: resnet50, dataset: imagenet, batch_size: 360, optimizer: sgd, precision: fp32}\n' >$TMP/batch.yaml
run place -c $TMP/c.yaml --memory-margin 10 --batch $TMP/batch.yaml | sed -n 2p
run place -c $TMP/c.yaml --memory-margin 2000 $TMP/r50.yaml
# simulate: trace jobs naming a model are sized only with --memory-margin.
printf 'id,submit,gpus,duration,model,batch_size,optimizer,precision\nj1,0,1,60,resnet50,360,sgd,fp32\nj2,0,1,60,resnet50,64,sgd,fp32\n' >$TMP/t.csv
run simulate -c $TMP/c.yaml $TMP/t.csv --quiet | grep -E '^all|^memory'
run simulate -c $TMP/c.yaml $TMP/t.csv --quiet --memory-margin 0 | grep -E '^all|^memory'
run simulate -c $TMP/c.yaml $TMP/t.csv --quiet --memory-margin 10 | grep -E '^all|^memory'
# A layer list (hand-computed in tests/unit/test_memory.c: 22570 elements
# per sample, 5418 parameters, 5.55 MiB at batch 64 in fp32 SGD).
cat >$TMP/tiny.yaml <<'YAML'
name: tiny-cnn
gpus: 1
input: [3, 32, 32]
batch_size: 64
optimizer: sgd
precision: fp32
model:
  name: tiny
  layer_list:
    - {conv: 16, kernel: 3, padding: 1}
    - {pool: 2}
    - {conv: 32, kernel: 3, stride: 2, padding: 1}
    - {pool: global}
    - {fc: 10}
YAML
run estimate $TMP/tiny.yaml | grep -E '^job|activations|placement'
sed 's/{fc: 10}/{conv: 8, kernel: 3}/' $TMP/tiny.yaml >$TMP/bad1.yaml
run estimate $TMP/bad1.yaml
sed 's/{pool: 2}/{pool: 2, conv: 4}/' $TMP/tiny.yaml >$TMP/bad2.yaml
run estimate $TMP/bad2.yaml
grep -v '^input' $TMP/tiny.yaml >$TMP/bad3.yaml
run estimate $TMP/bad3.yaml
sed 's/{pool: 2}/{pool: 2, kernel: 3}/' $TMP/tiny.yaml >$TMP/bad4.yaml
run estimate $TMP/bad4.yaml
