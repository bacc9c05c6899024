# --scale-durations: each recorded duration is read as measured on a
# reference placement and scaled to the placement the job gets by the perf
# model (unknown DL models: resnet50).  On servers like the cluster's own
# A100 nodes 1-GPU jobs keep their durations; those that land on H100 nodes
# get shorter; a K80 reference makes every job much shorter.
T=workloads/philly-2017-11-29.csv
run simulate $T --quiet | grep -E '^(queue delay|JCT)'
run simulate $T --quiet --scale-durations dgx-a100 | grep -E '^(queue delay|JCT)'
run simulate $T --quiet --scale-durations A100-SXM4-40GB:ib-hdr | grep -E '^(queue delay|JCT)'
run simulate $T --quiet --scale-durations K80:eth-10 --scale-model vgg16 | grep -E '^(queue delay|JCT)'
run simulate $T --scale-durations V100:foo
run simulate $T --scale-durations nosuch
run simulate $T --scale-durations K80 --scale-model bertt
run simulate $T --scale-model resnet50
